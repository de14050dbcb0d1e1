package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sealMarker = "zebrafinch" // in prompts and titles; never on disk in plaintext

// snapshot returns every file under root with its bytes.
func snapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, rerr := os.ReadFile(p)
			if rerr != nil {
				t.Fatal(rerr)
			}
			out[p] = b
		}
		return nil
	})
	return out
}

func mustRun(t *testing.T, env []string, stdin string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, env, stdin, args...)
	if code != 0 {
		t.Fatalf("chatcli %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
	}
	return out
}

// TestE2EWrongKeyThenRightKey is case key-1: an encrypted session opened
// with the wrong key gives an error and changes nothing on disk (no write
// of the session, its journal, an autosave or a journal of the failed
// REPL); then the right key opens it.
func TestE2EWrongKeyThenRightKey(t *testing.T) {
	home := t.TempDir()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	wrong := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(2)}
	mustRun(t, right, sealMarker+" hello\n/session save zoo\n")
	before := snapshot(t, home)

	out, errOut, code := run(t, wrong, "", "session", "show", "zoo")
	if code != 4 || !strings.Contains(errOut, `session "zoo": wrong encryption key or damaged file`) {
		t.Fatalf("show with the wrong key: exit %d\n%s%s", code, out, errOut)
	}
	// The REPL: the load fails, a prompt is answered, the REPL exits.
	out, errOut, _ = run(t, wrong, "/session load zoo\nsomething new\n")
	if !strings.Contains(out+errOut, "wrong encryption key") {
		t.Fatalf("repl:\n%s\n%s", out, errOut)
	}
	for _, args := range [][]string{{"session", "list"}, {"session", "search", "hello"}, {"-p", "again", "--session", "zoo"}} {
		run(t, wrong, "", args...)
	}
	after := snapshot(t, home)
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed under the wrong key", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && filepath.Base(p) != "history" && !strings.HasSuffix(p, ".open") {
			t.Errorf("%s was written under the wrong key", p)
		}
	}
	// The right key opens it.
	if out := mustRun(t, right, "", "session", "show", "zoo"); !strings.Contains(out, sealMarker+" hello") {
		t.Fatalf("show with the right key:\n%s", out)
	}
	// Without a key: the file is encrypted.
	out, errOut, code = run(t, []string{"CHATCLI_HOME=" + home}, "", "session", "show", "zoo")
	if code != 4 || !strings.Contains(errOut, `session "zoo" is encrypted; set CHATCLI_ENCRYPTION_KEY`) {
		t.Fatalf("no key: exit %d\n%s%s", code, out, errOut)
	}
}

// TestE2EMalformedKey: an all-zero key is refused at start-up, exit 2.
func TestE2EMalformedKey(t *testing.T) {
	for _, args := range [][]string{{"session", "list"}, {"-p", "hi"}, {"storage", "rekey"}} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_ENCRYPTION_KEY=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, "", args...)
		if code != 2 || !strings.Contains(errOut, "CHATCLI_ENCRYPTION_KEY") || !strings.Contains(errOut, "all 32 bytes are zero") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}

// cheapSalt writes home's passphrase salt file with cheap Argon2id
// parameters, as chatcli would write it (tests only; chatcli writes
// RFC 9106's).
func cheapSalt(t *testing.T, home string) {
	t.Helper()
	os.MkdirAll(home, 0o700)
	if err := os.WriteFile(filepath.Join(home, "key-salt.json"), []byte(`{"version":1,"kdf":"argon2id","salt":"AAECAwQFBgcICQoLDA0ODw==","time":1,"memory_kib":64,"threads":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestE2EPassphraseKey: a passphrase (ChatCLI accepts any text) seals the
// store through Argon2id and the store's salt; another passphrase cannot
// open it; a store without a salt file gets one with RFC 9106's
// parameters.
func TestE2EPassphraseKey(t *testing.T) {
	home := t.TempDir()
	cheapSalt(t, home)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=not base64! my passphrase"}
	mustRun(t, env, "", "-p", sealMarker+" hello", "--session", "zoo")
	data, err := os.ReadFile(filepath.Join(home, "sessions", "zoo.json"))
	if err != nil || strings.Contains(string(data), sealMarker) {
		t.Fatalf("session file not sealed (%v)", err)
	}
	if out := mustRun(t, env, "", "session", "show", "zoo"); !strings.Contains(out, sealMarker+" hello") {
		t.Fatalf("show with the passphrase:\n%s", out)
	}
	if out := mustRun(t, env, "", "config", "session"); !strings.Contains(out, "a passphrase (Argon2id") {
		t.Errorf("config:\n%s", out)
	}
	wrong := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=another passphrase"}
	if out, errOut, code := run(t, wrong, "", "session", "show", "zoo"); code != 4 || !strings.Contains(errOut, "zoo") {
		t.Errorf("wrong passphrase: exit %d\n%s%s", code, out, errOut)
	}
	fresh := t.TempDir()
	mustRun(t, []string{"CHATCLI_HOME=" + fresh, "CHATCLI_ENCRYPTION_KEY=pw"}, "", "session", "list")
	if salt, err := os.ReadFile(filepath.Join(fresh, "key-salt.json")); err != nil || !strings.Contains(string(salt), `"time":3,"memory_kib":65536,"threads":4`) {
		t.Errorf("new salt file (%v): %s", err, salt)
	}
}

// TestE2ESealedStoreHoldsNoPlaintext builds a sealed store through the
// binary (turns, fork, rename, search, export to stdout, list, rewind,
// trash and restore) and finds the marker word in no file.
func TestE2ESealedStoreHoldsNoPlaintext(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	mustRun(t, env, sealMarker+" one\n"+sealMarker+" two\n/session save zoo\n")
	mustRun(t, env, "", "-p", sealMarker+" three", "--session", "zoo")
	mustRun(t, env, "", "session", "fork", "zoo", "zoo2")
	mustRun(t, env, "", "session", "rename", "zoo2", "zoo3")
	if out := mustRun(t, env, "", "session", "search", sealMarker); !strings.Contains(out, "zoo") {
		t.Fatalf("search:\n%s", out)
	}
	if out := mustRun(t, env, "", "session", "export", "zoo", "md"); !strings.Contains(out, sealMarker+" three") {
		t.Fatalf("export:\n%s", out)
	}
	if out := mustRun(t, env, "", "session", "list"); !strings.Contains(out, sealMarker+" one") || !strings.Contains(out, "zoo3") {
		t.Fatalf("list:\n%s", out)
	}
	if out := mustRun(t, env, "", "session", "show", "zoo3"); !strings.Contains(out, sealMarker+" two") {
		t.Fatalf("show renamed:\n%s", out)
	}
	mustRun(t, env, "", "session", "delete", "zoo3", "--yes")
	mustRun(t, env, "", "session", "restore", "zoo3")
	mustRun(t, env, "", "session", "show", "zoo3")
	sealed := 0
	for p, b := range snapshot(t, home) {
		if bytes.Contains(b, []byte(sealMarker)) {
			t.Errorf("%s holds %q in plaintext", p, sealMarker)
		}
		if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl") {
			sealed++
		}
	}
	if sealed < 4 {
		t.Fatalf("only %d session and journal files", sealed)
	}
}
