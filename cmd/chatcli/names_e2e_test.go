package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// session list marks names that print like others (a Cyrillic 'е',
// fullwidth letters), in the table and in --json.
func TestSessionListMarksLookAlikeNames(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	for _, name := range []string{"demo", "dеmo", "ｄｅｍｏ"} { // Latin, Cyrillic е, fullwidth
		if _, stderr, code := run(t, env, "", "-p", "hi", "--session", name); code != 0 {
			t.Fatalf("-p --session %s: exit %d: %s", name, code, stderr)
		}
	}
	out, _, _ := run(t, env, "", "session", "list")
	if !strings.Contains(out, "dеmo (mixed-script)") || !strings.Contains(out, "ｄｅｍｏ (fullwidth)") || strings.Contains(out, "demo (") {
		t.Errorf("session list does not mark exactly the look-alikes:\n%s", out)
	}
	js, _, _ := run(t, env, "", "session", "list", "--json")
	if !strings.Contains(js, `"look_alike": "mixed-script"`) || !strings.Contains(js, `"look_alike": "fullwidth"`) {
		t.Errorf("session list --json has no look_alike:\n%s", js)
	}
}

// A session file renamed by hand to its NFD spelling shows and deletes
// under the NFC name people type.
func TestAnNFDSessionFileShowsAndDeletes(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if _, stderr, code := run(t, env, "", "-p", "olá", "--session", "café"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dir := filepath.Join(home, "sessions")
	if err := os.Rename(filepath.Join(dir, "café.json"), filepath.Join(dir, norm.NFD.String("café")+".json")); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := run(t, env, "", "session", "show", "café"); code != 0 || !strings.Contains(out, "olá") {
		t.Errorf("show café: exit %d:\n%s%s", code, out, stderr)
	}
	if _, stderr, code := run(t, env, "", "session", "delete", "café", "--yes"); code != 0 {
		t.Errorf("delete café: exit %d: %s", code, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "caf*.json")); len(left) != 0 {
		t.Errorf("still in sessions/: %v", left)
	}
}
