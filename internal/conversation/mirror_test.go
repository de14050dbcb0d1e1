package conversation

import (
	"errors"
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

func TestMirrorCopiesWithoutBindingAndKeepsTheConversationUnsaved(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	if err := e.Mirror("mcp-a1"); err != nil { // empty: nothing written
		t.Fatal(err)
	}
	if f.store.Exists("mcp-a1") {
		t.Fatal("an empty conversation was mirrored")
	}
	turn(t, e, "one")
	if err := e.Mirror("mcp-a1"); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "two")
	if err := e.Mirror("mcp-a1"); err != nil {
		t.Fatal(err)
	}
	s, err := f.store.Load("mcp-a1")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History) != 4 || s.History[2].Content != "two" || s.Revision != 2 {
		t.Fatalf("mirror: %d messages, revision %d", len(s.History), s.Revision)
	}
	if e.Bound() != "" || !e.Dirty() {
		t.Fatalf("bound %q dirty %v: a mirror is not a binding", e.Bound(), e.Dirty())
	}
	// Replacing the conversation still keeps it elsewhere before the mirror
	// is reused.
	if name, err := e.New(); err != nil || name == "" {
		t.Fatalf("new: autosaved %q, %v", name, err)
	}
}

func TestMirrorRefusesPersonNamesAndUnreadableFiles(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "one")
	if err := e.Mirror("notes"); !errors.Is(err, ErrReservedName) {
		t.Fatalf("person name: %v", err)
	}
	if err := e.Mirror("../x"); !errors.Is(err, session.ErrInvalidName) {
		t.Fatalf("bad name: %v", err)
	}
	p, _ := f.store.Path("mcp-bad")
	if err := os.WriteFile(p, []byte(`{"version":2,"chat_hist`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Mirror("mcp-bad"); !errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("corrupt mirror: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != `{"version":2,"chat_hist` {
		t.Fatalf("corrupt file changed: %q", b)
	}
}
