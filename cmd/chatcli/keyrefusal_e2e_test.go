package main

import (
	"path/filepath"
	"strings"
	"testing"
)

const refusedHint = `the encryption key did not open session "notes"; nothing is written under it — restart with the right CHATCLI_ENCRYPTION_KEY`

// newFiles returns the files in after that are not in before, except the
// typed input history and journal lock files.
func newFiles(before, after map[string][]byte) []string {
	var out []string
	for p := range after {
		if _, ok := before[p]; !ok && filepath.Base(p) != "history" && !strings.HasSuffix(p, ".open") {
			out = append(out, p)
		}
	}
	return out
}

// TestE2EWrongKeyWritesNothingAsked is case key-1 for explicit writes:
// once the key failed to open a session, a fork, a save and the exit
// autosave are all refused with the reason; and a key that never met a file
// of the store is checked before its first write (-p on a new session).
func TestE2EWrongKeyWritesNothingAsked(t *testing.T) {
	home := t.TempDir()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	wrong := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(2)}
	mustRun(t, right, sealMarker+" hello\n/session save notes\n")
	before := snapshot(t, home)

	out, errOut, _ := run(t, wrong, "/session load notes\n/session fork zz\nhi\n/session save yy\n/exit\n")
	if !strings.Contains(out+errOut, refusedHint) {
		t.Errorf("repl with the wrong key does not say why nothing is written:\n%s\n%s", out, errOut)
	}
	out, errOut, code := run(t, wrong, "", "-p", "hi", "--session", "brandnew")
	if code != 4 || !strings.Contains(errOut, refusedHint) {
		t.Errorf("-p on a new session with another key: exit %d\n%s%s", code, out, errOut)
	}
	if added := newFiles(before, snapshot(t, home)); len(added) > 0 {
		t.Fatalf("written under the wrong key: %v", added)
	}
	if out := mustRun(t, right, "", "-p", "more", "--session", "brandnew"); out == "" {
		t.Fatal("the right key writes")
	}
}

// TestE2ENoKeyOnAnEncryptedStore: without the key, a conversation started
// after an encrypted session failed to load is not autosaved or journalled
// in plaintext (the notice says why); /session save NAME still saves it.
func TestE2ENoKeyOnAnEncryptedStore(t *testing.T) {
	home := t.TempDir()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	none := []string{"CHATCLI_HOME=" + home}
	mustRun(t, right, sealMarker+" hello\n/session save notes\n")
	before := snapshot(t, home)

	out, errOut, _ := run(t, none, "/session load notes\nhi more\n/exit\n")
	const why = "the store is encrypted and CHATCLI_ENCRYPTION_KEY is not set: this conversation was not autosaved"
	if !strings.Contains(out+errOut, why) {
		t.Errorf("no notice saying why nothing was autosaved:\n%s\n%s", out, errOut)
	}
	if added := newFiles(before, snapshot(t, home)); len(added) > 0 {
		t.Fatalf("plaintext written next to encrypted sessions: %v", added)
	}
	mustRun(t, none, "hi again\n/session save mine\n")
	if out := mustRun(t, none, "", "session", "show", "mine"); !strings.Contains(out, "hi again") {
		t.Fatalf("explicit save without the key:\n%s", out)
	}
}
