package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestAWrongKeyWritesNoInputHistory: a REPL started with a key that does
// not open the store's sealed sessions writes nothing under that key,
// its input history included, and neither does one started without a
// key (nothing is written in plaintext there): the history is off for the run, with a
// warning saying why (so the next run, with the right key, finds no
// history it cannot open).
func TestAWrongKeyWritesNoInputHistory(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-keyhist-%d", os.Getpid())}
	home := s.home()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=the-right-key"}
	if _, errOut, code := run(t, right, "", "-p", "hello", "--session", "enc"); code != 0 {
		t.Fatalf("the sealed session: exit %d: %s", code, errOut)
	}
	for i, key := range []string{"CHATCLI_ENCRYPTION_KEY=a-wrong-key", "CHATCLI_ENCRYPTION_KEY="} { // a wrong key; none at all
		s := tmuxSession{t: t, name: fmt.Sprintf("%s-%d", s.name, i)}
		s.start(100, 30, "CHATCLI_HOME="+home, key)
		s.waitFor("offline>", "input history is off")
		s.run("send-keys", "-t", s.name, "typed under the wrong key", "Enter")
		s.waitForCount("offline>", 2) // answered: the line went to the history, if any
		if _, err := os.Stat(filepath.Join(home, "history")); !os.IsNotExist(err) {
			t.Fatalf("%s: a history file was written (%v):\n%s", key, err, s.screen())
		}
	}
}
