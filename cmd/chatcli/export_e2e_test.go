package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EExportPathRules: `session export NAME md PATH` and the REPL's
// /session export refuse to replace a file without --yes, take ~ for the
// home folder and create a missing folder.
func TestE2EExportPathRules(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "HOME=" + home}
	mustRun(t, env, "", "-p", "export me", "--session", "demo")
	target := filepath.Join(home, "out", "demo.md")
	out := mustRun(t, env, "", "session", "export", "demo", "md", "~/out/demo.md")
	if !strings.Contains(out, "Exported 2 messages to "+target) {
		t.Fatalf("export to ~/out: %s", out)
	}
	if fi, err := os.Stat(filepath.Dir(target)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the folder made for the export: %v %v", fi, err)
	}
	os.WriteFile(target, []byte("mine"), 0o600)
	for _, c := range []struct {
		stdin string
		args  []string
	}{{"", []string{"session", "export", "demo", "md", target}}, {"/session load demo\n/session export md " + target + "\n", nil}} {
		_, errOut, code := run(t, env, c.stdin, c.args...)
		if code != exitUsage || !strings.Contains(errOut, target+" exists; add --yes to replace it") {
			t.Fatalf("%v%q over a file: exit %d\n%s", c.args, c.stdin, code, errOut)
		}
		if b, _ := os.ReadFile(target); string(b) != "mine" {
			t.Fatalf("replaced without --yes: %q", b)
		}
	}
	mustRun(t, env, "", "session", "export", "demo", "md", target, "--yes")
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "export me") {
		t.Fatalf("--yes did not replace it: %q", b)
	}
	mustRun(t, env, "/session load demo\n/session export jsonl "+target+" --yes\n")
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"export me"`) || strings.HasPrefix(string(b), "#") {
		t.Fatalf("/session export --yes did not replace it: %q", b)
	}
	_, errOut, code := run(t, env, "", "session", "export", "demo", "md", filepath.Join(target, "x.md"))
	if code == 0 || !strings.Contains(errOut, target) || strings.Contains(errOut, ".tmp-") {
		t.Fatalf("export below a file: exit %d\n%s", code, errOut)
	}
}
