package main

import (
	"fmt"
	"os"
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
