package main

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMCPServerSIGTERMCancelsTheTurnInFlight: SIGTERM while a chat call
// waits for a provider that never answers ends the process at once, as in
// the REPL; the prompt is kept in the bound session, marked unanswered, and
// the journal parses.
func TestMCPServerSIGTERMCancelsTheTurnInFlight(t *testing.T) {
	srv, arrived, release := gatedServer(t)
	defer close(release)
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	m := startMCP(t, env)
	go m.chat(context.Background(), "pending prompt", "S")
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatalf("the request never came:\n%s", m.stderr.String())
	}
	m.closed = true
	m.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { m.cs.Close(); close(done) }() // waits for the process
	select {
	case <-done:
	case <-time.After(exitWait / 2):
		t.Fatalf("mcp-server still runs %v after SIGTERM with a turn in flight", exitWait/2)
	}
	show, errOut, code := run(t, env, "", "session", "show", "S", "--json")
	if code != 0 || !strings.Contains(show, `"pending prompt"`) || !strings.Contains(strings.ReplaceAll(show, " ", ""), `"unanswered":true`) {
		t.Fatalf("S after SIGTERM (exit %d):\n%s\n%s\nserver:\n%s", code, show, errOut, m.stderr.String())
	}
	checkJournals(t, home)
}
