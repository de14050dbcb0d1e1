package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// @file and @session reach the request expanded and are stored expanded;
// @command is refused without a terminal and runs with auto-exec; an
// unknown @word and an address are sent as typed.
func TestReferencesReachTheRequest(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "main.go"), []byte("package main // FILEMARKER-1\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}

	_, errOut := runOK(t, work, env, "look at @file main.go please, mail me@example.com @nosuch\n/session save refs\n")
	r := lastRequest(t, reqs, 0)
	if !strings.Contains(r, "FILEMARKER-1") || !strings.Contains(r, "me@example.com @nosuch") {
		t.Fatalf("request:\n%s", r)
	}
	if !strings.Contains(errOut, "attached main.go, ") {
		t.Fatalf("the expansion is not shown:\n%s", errOut)
	}
	if out, _ := runOK(t, work, env, "", "session", "show", "refs", "--json"); !strings.Contains(out, "FILEMARKER-1") {
		t.Fatalf("not stored expanded:\n%s", out)
	}

	n := len(reqs())
	out, errOut, code := runAt(t, work, env, "", "-p", "@command echo CMDMARKER-$((40+2))")
	if code == 0 || len(reqs()) != n || !strings.Contains(errOut, "refused") {
		t.Fatalf("@command without a terminal: exit %d, %d requests\n%s%s", code, len(reqs())-n, out, errOut)
	}
	runOK(t, work, env, "", "-p", "@command echo CMDMARKER-$((40+2))", "--agent-auto-exec")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "CMDMARKER-42") {
		t.Fatalf("@command output missing:\n%s", r)
	}

	n = len(reqs())
	runOK(t, work, env, "", "-p", "what did we say? @session FILEMARKER")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "[refs #") || strings.Count(r, "FILEMARKER-1") < 1 {
		t.Fatalf("@session hits missing:\n%s", r)
	}
}
