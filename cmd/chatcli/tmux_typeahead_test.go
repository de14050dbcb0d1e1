package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKeysTypedDuringATurnReachTheNextPrompt: what is typed while the REPL
// waits for a slow reply is kept, as the README says: a command typed with
// its Enter runs once the reply is in, and text typed without one is on
// the next prompt, ready to edit.
func TestKeysTypedDuringATurnReachTheNextPrompt(t *testing.T) {
	needTmux(t)
	srv := slowServer(t, 2*time.Second, "slow answer")
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-typeahead-%d", os.Getpid())}
	s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "first question", "Enter")
	s.waitFor("waiting for the model")
	s.run("send-keys", "-t", s.name, "/model", "Enter")
	s.run("send-keys", "-t", s.name, "second quest")
	scr := s.waitFor("Provider openai, model m.", "m> second quest")
	if i, j := strings.Index(scr, "slow answer"), strings.Index(scr, "Provider openai"); i < 0 || j < i {
		t.Fatalf("the command typed ahead did not run after the reply:\n%s", scr)
	}
}

// TestAltEnterDuringATurnIsALineBreakNotACancel: Alt+Enter typed while a
// reply is awaited (the terminal sends ESC CR) neither cancels the turn,
// as a lone Esc does, nor sends the line: the reply comes, and the next
// input holds the two lines, sent by Enter as one message.
func TestAltEnterDuringATurnIsALineBreakNotACancel(t *testing.T) {
	needTmux(t)
	srv := slowServer(t, 2*time.Second, "slow answer")
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-altenter-%d", os.Getpid())}
	home := s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "first question", "Enter")
	s.waitFor("waiting for the model")
	s.run("send-keys", "-t", s.name, "two", "M-Enter", "lines")
	scr := s.waitFor("slow answer", "m> two")
	if strings.Contains(scr, "cancel") {
		t.Fatalf("Alt+Enter cancelled the turn:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitForCount("slow answer", 2)
	s.run("send-keys", "-t", s.name, "/session save kept", "Enter")
	s.waitFor(`as session "kept"`)
	out, _, _ := run(t, []string{"CHATCLI_HOME=" + home}, "", "session", "show", "kept", "--json")
	if !strings.Contains(out, `"content":"two\nlines"`) {
		t.Fatalf("the second message is not the two lines:\n%s", out)
	}
}

// TestAnAnswerTypedAheadAnswersTheQuestion: "/session delete x" and its
// "y" typed in one go: the question takes the "y" (it reads through the
// line editor, which holds what was typed ahead), the session goes to the
// trash, and the "y" is not sent to the model as a prompt.
func TestAnAnswerTypedAheadAnswersTheQuestion(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-answer-%d", os.Getpid())}
	home := s.start(100, 30)
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "hello\n/session save x\n"); code != 0 {
		t.Fatalf("saving x: %s", errOut)
	}
	s.waitFor("offline>")
	s.run("send-keys", "-t", s.name, "/session delete x", "Enter", "y", "Enter")
	scr := s.waitFor("moved to the trash")
	if strings.Contains(scr, "reply #1 to: y") {
		t.Fatalf("the answer was sent as a prompt:\n%s", scr)
	}
	if _, err := os.Stat(filepath.Join(home, "sessions", "x.json")); !os.IsNotExist(err) {
		t.Fatalf("x is still there (%v):\n%s", err, s.screen())
	}
}
