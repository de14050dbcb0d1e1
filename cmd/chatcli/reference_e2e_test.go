package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
	if code == 0 || len(reqs()) != n || !strings.Contains(errOut, "refused") || strings.Count(errOut, "refused") != 1 {
		t.Fatalf("@command without a terminal: exit %d, %d requests\n%s%s", code, len(reqs())-n, out, errOut)
	}
	runOK(t, work, env, "", "-p", "@command echo CMDMARKER-$((40+2))", "--agent-auto-exec")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "CMDMARKER-42") {
		t.Fatalf("@command output missing:\n%s", r)
	}

	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
	os.WriteFile(filepath.Join(work, "red.png"), []byte(png), 0o600)
	n = len(reqs())
	runOK(t, work, env, "", "-p", "what is in @file red.png")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "image_url") || !strings.Contains(r, "data:image/png;base64,") {
		t.Fatalf("the image is not an image part:\n%s", r)
	}

	n = len(reqs())
	runOK(t, work, env, "", "-p", "what did we say? @session FILEMARKER")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "[refs #") || strings.Count(r, "FILEMARKER-1") < 1 {
		t.Fatalf("@session hits missing:\n%s", r)
	}
}

// After a compaction the summary lists recall keys, and @recall KEY in a
// new process brings the removed turn back into the request.
func TestRecallAfterCompactionReachesTheRequest(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	notes := filepath.Join(t.TempDir(), "notes.md")
	os.WriteFile(notes, []byte("KEPTMARKER-5 survives compaction\n"), 0o600)
	runOK(t, "", env, "", "context", "create", "notes", notes)
	var script strings.Builder
	script.WriteString("/context attach notes\n")
	script.WriteString("the RECALLMARKER-8 plan is to ship on day one\n")
	for i := range 14 {
		script.WriteString(fmt.Sprintf("turn %d %s\n", i, strings.Repeat("filler words for size ", 40)))
	}
	script.WriteString("/compact\n/session save c\n")
	runOK(t, "", env, script.String())
	out, _ := runOK(t, "", env, "", "session", "show", "c", "--json")
	var d struct {
		ChatHistory []struct {
			Content string `json:"content"`
		} `json:"chat_history"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	key := ""
	for _, m := range d.ChatHistory {
		if strings.Contains(m.Content, "RECALLMARKER-8 plan is to ship on day one\n") {
			t.Fatalf("the first turn survived the compaction verbatim:\n%s", out)
		}
		for _, l := range strings.Split(m.Content, "\n") {
			if strings.HasPrefix(l, "- @recall r") && strings.Contains(l, "RECALLMARKER") {
				key, _, _ = strings.Cut(strings.TrimPrefix(l, "- @recall "), ":")
			}
		}
	}
	if key == "" {
		t.Fatalf("no recall key for the first turn:\n%s", out)
	}
	n := len(reqs())
	_, errOut := runOK(t, "", env, "", "-p", "remember @recall "+key, "--session", "c")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "user: the RECALLMARKER-8 plan is to ship on day one") || !strings.Contains(r, "KEPTMARKER-5") {
		t.Fatalf("@recall %s did not bring the turn back:\n%s\n%s", key, r, errOut)
	}
	if _, errOut, code := runAt(t, "", env, "", "-p", "@recall r0000000000", "--session", "c"); code == 0 || !strings.Contains(errOut, "no such recall key") {
		t.Fatalf("unknown key: exit %d %s", code, errOut)
	}
}

// @git brings the branch, the status and the recent log of the working
// folder's repository into the request.
func TestGitReferenceReachesTheRequest(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	work := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", work, "-c", "user.name=t", "-c", "user.email=t@localhost"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("init", "-q", "-b", "feature-gitmarker")
	os.WriteFile(filepath.Join(work, "a.txt"), []byte("one\n"), 0o600)
	gitIn("add", "a.txt")
	gitIn("commit", "-q", "-m", "COMMITMARKER first")
	os.WriteFile(filepath.Join(work, "b.txt"), []byte("two\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	_, errOut := runOK(t, work, env, "", "-p", "what changed? @git")
	r := lastRequest(t, reqs, 0)
	for _, want := range []string{"feature-gitmarker", "COMMITMARKER first", "b.txt"} {
		if !strings.Contains(r, want) {
			t.Errorf("%q missing from the request:\n%s\nstderr:\n%s", want, r, errOut)
		}
	}
}
