package conversation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ChatCLI 1.66 file with separate agent and coder histories is merged on
// load, said once, and written merged when the conversation closes: the next
// load says nothing and has the same 13 messages.
func TestChatCLI166ModesMergedAndSaidOnce(t *testing.T) {
	f := newFixture(t)
	data, err := os.ReadFile("../session/testdata/chatcli-1.188.0/v166-scoped.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.store.Dir(), "old.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	e := f.engine(nil)
	if _, err := e.Load("old"); err != nil {
		t.Fatal(err)
	}
	if len(e.History()) != 13 || len(f.notices) != 1 || !strings.Contains(f.notices[0], "merged 8 messages") {
		t.Fatalf("%d messages, notices %q", len(e.History()), f.notices)
	}
	if _, err := e.Close(false); err != nil {
		t.Fatal(err)
	}
	f.notices = nil
	e2 := f.engine(nil)
	if _, err := e2.Load("old"); err != nil {
		t.Fatal(err)
	}
	if len(e2.History()) != 13 || len(f.notices) != 0 {
		t.Fatalf("reloaded: %d messages, notices %q", len(e2.History()), f.notices)
	}
}
