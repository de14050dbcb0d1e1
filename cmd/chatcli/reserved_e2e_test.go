package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EMachinePrefixesAreRefusedOnEverySurface: a name a person gives
// may not start with a machine prefix, whether through the headless verbs,
// one shot, the REPL's /session verbs or --name; nothing is written under
// it and the exit status is the usage one.
func TestE2EMachinePrefixesAreRefusedOnEverySurface(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_SESSION_AUTOSAVE=off"}
	mustRun(t, env, "hello\n/session save src\n")
	for _, prefix := range []string{"autosave-", "mcp-"} {
		name := prefix + "mine"
		for _, c := range []struct {
			stdin string
			args  []string
		}{
			{"", []string{"session", "fork", "src", name}},
			{"", []string{"session", "rename", "src", name}},
			{"", []string{"-p", "hi", "--session", name}},
			{"", []string{"-p", "hi", "--name", name}},
			{"hi\n/session save " + name + "\n", nil},
			{"hi\n/session fork " + name + "\n", nil},
			{"hi\n/session attach " + name + "\n", nil},
			{"/session load src\n/session rename " + name + "\n", nil},
		} {
			_, errOut, code := run(t, env, c.stdin, c.args...)
			if code != exitUsage || !strings.Contains(errOut, `reserved session name "`+name+`"`) || !strings.Contains(errOut, `names starting with "`+prefix+`"`) {
				t.Errorf("%v %q: exit %d\n%s", c.args, c.stdin, code, errOut)
			}
			if _, err := os.Stat(filepath.Join(home, "sessions", name+".json")); err == nil {
				t.Fatalf("%v %q wrote %s", c.args, c.stdin, name)
			}
		}
	}
	if out := mustRun(t, env, "", "session", "show", "src"); !strings.Contains(out, "hello") {
		t.Fatalf("src after the refusals:\n%s", out)
	}
}
