package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestPickerOnATerminal drives `chatcli --resume` at 80x24: the rows of
// this folder, Tab to every folder, a filter, a content search hit and
// its preview, Ctrl+R renaming, and Enter resuming the chosen session.
func TestPickerOnATerminal(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-pick-%d", os.Getpid())}
	home := s.home()
	env := []string{"CHATCLI_HOME=" + home}
	here, there := t.TempDir(), t.TempDir()
	seedSessions(t, env, []folderSession{
		{here, "parser-work", "rewrite the parser in Go"},
		{here, "notes", "meeting notes about the zebra migration, and past the title's sixty characters: quokka"},
		{there, "elsewhere", "a question asked in another folder"},
	})
	command := fmt.Sprintf("cd %q && env -i PATH=%q HOME=%q CHATCLI_HOME=%q TERM=xterm-256color %q --resume; sleep 30",
		here, os.Getenv("PATH"), home, home, binary)
	s.run("new-session", "-d", "-s", s.name, "-x", "80", "-y", "24", command)
	scr := s.waitFor("this folder · 2 shown of 3")
	if strings.Contains(scr, "elsewhere") {
		t.Fatalf("another folder's session in this folder's rows:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "Tab")
	s.waitFor("all folders · 3 shown of 3")
	s.run("send-keys", "-t", s.name, "-l", "pars")
	scr = s.waitFor("1 shown of 3", "> rewrite the parser in Go")
	if !strings.Contains(scr, "parser-work") || !strings.Contains(scr, "> rewrite the parser in Go") {
		t.Fatalf("filter and preview:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "C-u")
	s.run("send-keys", "-t", s.name, "-l", "quokka") // past the title: only the content has it
	scr = s.waitFor("“", "1 shown of 3", "> notes ", "── notes")
	if !strings.Contains(scr, "1 shown of 3") || !strings.Contains(scr, "> notes ") || !strings.Contains(scr, "── notes") {
		t.Fatalf("the content hit and its preview:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "C-u")
	s.run("send-keys", "-t", s.name, "-l", "zebra")
	s.waitFor("notes")
	s.run("send-keys", "-t", s.name, "C-r")
	s.waitFor("new name: notes")
	s.run("send-keys", "-t", s.name, "C-u")
	s.run("send-keys", "-t", s.name, "-l", "zebra-notes")
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor(`renamed "notes" to "zebra-notes"`)
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor(`Loaded session "zebra-notes" (2 messages).`)
	s.waitFor("[zebra-notes] offline>")
	s.run("send-keys", "-t", s.name, "-l", "one more")
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor("reply #2 to: one more")
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("chatcli --resume zebra-notes continues it")
	for _, l := range listed(t, env) {
		if l.Name == "notes" || l.Name == "zebra-notes" && l.Messages != 4 {
			t.Fatalf("after the rename and the turn: %+v", listed(t, env))
		}
	}
}
