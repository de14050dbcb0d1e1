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

// TestE2EMalformedKey: refused at start-up with the reason, exit 2.
func TestE2EMalformedKey(t *testing.T) {
	for key, why := range map[string]string{"not base64!": "not standard base64", "AAEC": "decodes to 3 bytes instead of 32"} {
		for _, args := range [][]string{{"session", "list"}, {"-p", "hi"}, {"storage", "rekey"}} {
			out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_ENCRYPTION_KEY=" + key}, "", args...)
			if code != 2 || !strings.Contains(errOut, "CHATCLI_ENCRYPTION_KEY") || !strings.Contains(errOut, why) {
				t.Errorf("%q %v: exit %d\n%s%s", key, args, code, out, errOut)
			}
		}
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
