package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/chatcli/chatcli/internal/recent"
)

// folderSession is a session made by a one-shot turn in a folder.
type folderSession struct{ dir, name, prompt string }

// seedSessions makes each session with `chatcli -p PROMPT --session NAME`
// run in its folder.
func seedSessions(t *testing.T, env []string, sessions []folderSession) {
	t.Helper()
	for _, c := range sessions {
		if _, errOut, code := runAt(t, c.dir, env, "", "-p", c.prompt, "--session", c.name); code != 0 {
			t.Fatalf("%s: %d %s", c.name, code, errOut)
		}
	}
}

func TestSessionListLimitFolderAndWidths(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	a, b := t.TempDir(), t.TempDir()
	seedSessions(t, env, []folderSession{
		{a, "plain", "an ascii title"},
		{a, "日本語", "日本語のタイトル"},
		{b, "emoji", "🎉 party plans"},
	})
	out, errOut, code := run(t, env, "", "session", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 {
		t.Fatalf("list: exit %d\n%s\n%s", code, out, errOut)
	}
	col := -1 // where MESSAGES starts, in display cells, on every line
	for _, l := range lines {
		i := strings.Index(l, "  ")
		rest := strings.TrimLeft(l[i:], " ")
		w := uniseg.StringWidth(l[:len(l)-len(rest)])
		if col != -1 && w != col {
			t.Fatalf("columns do not align by display width:\n%s", out)
		}
		col = w
	}
	out, _, _ = run(t, env, "", "session", "list", "-n", "1")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || lines[2] != "(1 of 3 sessions; -n 0 lists them all)" {
		t.Fatalf("-n 1:\n%s", out)
	}
	if _, errOut, code := run(t, env, "", "session", "list", "-n", "-3"); code != exitUsage || !strings.Contains(errOut, "-n -3") {
		t.Fatalf("-n -3: exit %d %s", code, errOut)
	}
	out, _, _ = run(t, env, "", "session", "list", "--json", "-n", "2")
	var l []listEntry
	if err := json.Unmarshal([]byte(out), &l); err != nil || len(l) != 2 {
		t.Fatalf("--json -n 2: %v\n%s", err, out)
	}
	for _, e := range l {
		want := recent.Folder(a)
		if e.Name == "emoji" {
			want = recent.Folder(b)
		}
		if e.Folder != want {
			t.Fatalf("%s: folder %q, want %q", e.Name, e.Folder, want)
		}
	}
}

// TestSessionListOnATerminal: this folder's sessions with relative ages
// (no dates),
// --all every folder's with theirs.
func TestSessionListOnATerminal(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-list-%d", os.Getpid())}
	home := s.home()
	env := []string{"CHATCLI_HOME=" + home}
	a, b := t.TempDir(), t.TempDir()
	seedSessions(t, env, []folderSession{{a, "s0", "question"}, {a, "s1", "question"}, {b, "s2", "question"}})
	command := fmt.Sprintf("cd %q && env -i PATH=%q HOME=%q CHATCLI_HOME=%q TERM=xterm-256color sh -c '%s session list; echo ===; %s session list --all'; sleep 30",
		a, os.Getenv("PATH"), home, home, binary, binary)
	s.run("new-session", "-d", "-s", s.name, "-x", "120", "-y", "40", command)
	scr := s.waitFor("FOLDER")
	first, all, _ := strings.Cut(scr, "===")
	if strings.Contains(first, "-12-") || !strings.Contains(first, " now ") || strings.Contains(first, "s2 ") || !strings.Contains(first, "2 of 3; --all lists every folder's") {
		t.Fatalf("this folder's list:\n%s", scr)
	}
	if !strings.Contains(all, "s2 ") || !strings.Contains(all, recent.Folder(b)) {
		t.Fatalf("--all:\n%s", scr)
	}
}
