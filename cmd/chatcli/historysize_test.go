package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// HISTORY_MAX_SIZE is read as ChatCLI reads it (bytes, KB/MB/GB); a value
// neither program reads is an error of the REPL only, never of session
// list or -p.
func TestHistoryMaxSizeBinary(t *testing.T) {
	home := t.TempDir()
	out, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "HISTORY_MAX_SIZE=100MB"}, "", "config", "session")
	if code != 0 || !strings.Contains(out, "100MB (104857600 bytes") || strings.Contains(errOut, "HISTORY_MAX_SIZE") {
		t.Fatalf("config with 100MB: exit %d\n%s%s", code, out, errOut)
	}
	bad := []string{"CHATCLI_HOME=" + home, "HISTORY_MAX_SIZE=100 megs"}
	if out, errOut, code := run(t, bad, "", "session", "list"); code != 0 {
		t.Errorf("session list with a bad HISTORY_MAX_SIZE: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := run(t, bad, "", "-p", "hello"); code != 0 || !strings.Contains(out, "hello") {
		t.Errorf("-p with a bad HISTORY_MAX_SIZE: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, _ := run(t, bad, "", "config", "session"); !strings.Contains(out, `invalid: HISTORY_MAX_SIZE: config: invalid setting: "100 megs" is not a size`) {
		t.Errorf("config does not show the bad value:\n%s", out)
	}
}

// On a terminal, the REPL keeps its input history within HISTORY_MAX_SIZE
// bytes, and refuses to start with a value it cannot read.
func TestHistoryMaxSizeOnATerminal(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-histsize-%d", os.Getpid())}
	home := s.start(120, 40, "HISTORY_MAX_SIZE=40")
	s.waitFor("offline>")
	for i := range 6 {
		s.run("send-keys", "-t", s.name, fmt.Sprintf("question %d", i), "Enter")
		s.waitFor(fmt.Sprintf("to: question %d", i))
	}
	data, err := os.ReadFile(filepath.Join(home, "history"))
	if err != nil || len(data) > 40 || !strings.HasSuffix(string(data), "question 5\n") {
		t.Errorf("history file (%v), %d bytes:\n%s", err, len(data), data)
	}
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("Conversation saved as")

	bad := tmuxSession{t: t, name: fmt.Sprintf("chatcli-histbad-%d", os.Getpid())}
	bad.start(120, 40, "HISTORY_MAX_SIZE=1TB")
	bad.waitFor(`chatcli: HISTORY_MAX_SIZE: config: invalid setting: "1TB" is not a size`)
}
