package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives the REPL on a real terminal through tmux.
type tmuxSession struct {
	t    *testing.T
	name string
}

func (s tmuxSession) run(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", s.name}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", s.name) }

// waitFor polls the screen until it contains want.
func (s tmuxSession) waitFor(want string) string {
	deadline := time.Now().Add(20 * time.Second)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", want, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestEscEscOpensTheRewindMenuOnATerminal types into the real line editor:
// two prompts, then Esc twice at the empty prompt opens the rewind menu.
func TestEscEscOpensTheRewindMenuOnATerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing: .ci/run installs it")
		}
		t.Skip("tmux is not installed; .ci/run installs it for CI")
	}
	home := t.TempDir()
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-test-%d", os.Getpid())}
	command := fmt.Sprintf("env -i PATH=%q HOME=%q CHATCLI_HOME=%q TERM=xterm-256color %q; sleep 30",
		os.Getenv("PATH"), home, home, binary)
	s.run("new-session", "-d", "-s", s.name, "-x", "120", "-y", "40", command)
	t.Cleanup(func() { exec.Command("tmux", "-L", s.name, "kill-server").Run() })
	s.waitFor("offline>")
	s.run("send-keys", "-t", s.name, "first question", "Enter")
	s.waitFor("reply #1 to: first question")
	s.run("send-keys", "-t", s.name, "second question", "Enter")
	s.waitFor("reply #2 to: second question")
	s.run("send-keys", "-t", s.name, "Escape")
	s.run("send-keys", "-t", s.name, "Escape")
	scr := s.waitFor("Rewind to [1-2]")
	if !strings.Contains(scr, "[1] ") || !strings.Contains(scr, "2 msgs  second question") {
		t.Fatalf("menu:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "1", "Enter")
	s.waitFor(`before "second question": 2 messages`)
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("Conversation saved as")
}
