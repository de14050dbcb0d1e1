package conversation

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

func TestMirrorWritesAMachineSessionWithoutBinding(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "one")
	if err := e.Mirror("mcp-x1"); err != nil {
		t.Fatal(err)
	}
	if e.Bound() != "" || e.Dirty() {
		t.Fatalf("bound %q dirty %v after a mirror", e.Bound(), e.Dirty())
	}
	turn(t, e, "two")
	if err := e.Mirror("mcp-x1"); err != nil {
		t.Fatal(err)
	}
	s, err := f.store.Load("mcp-x1")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History) != 4 || s.Revision != 2 || users(s.History) != "one,two" {
		t.Fatalf("mirror holds %d messages (%s), revision %d", len(s.History), users(s.History), s.Revision)
	}
	// Nothing unsaved: a new conversation makes no autosave.
	if name, err := e.New(); err != nil || name != "" {
		t.Fatalf("New after a mirror autosaved %q (%v)", name, err)
	}
}

func TestMirrorRefusesPersonNamesAndBoundConversations(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "one")
	for name, want := range map[string]error{"notes": ErrReservedName, "../mcp-x": session.ErrInvalidName, "": session.ErrInvalidName} {
		if err := e.Mirror(name); !errors.Is(err, want) {
			t.Errorf("Mirror(%q) = %v, want %v", name, err, want)
		}
	}
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	if err := e.Mirror("mcp-x"); !errors.Is(err, ErrBound) {
		t.Fatalf("Mirror while bound = %v", err)
	}
	if f.store.Exists("mcp-x") || f.store.Exists("notes") {
		t.Fatal("a refused mirror wrote a file")
	}
}

func TestFailedMirrorLeavesThePreviousFile(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "one")
	p, _ := f.store.Path("mcp-x")
	cut := []byte(`{"version":2,"chat_history":[{"role":"user","cont`)
	if err := os.WriteFile(p, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	err := e.Mirror("mcp-x")
	if !errors.Is(err, session.ErrCorrupt) || !strings.Contains(err.Error(), p) || !e.Dirty() {
		t.Fatalf("mirror over a cut file: err %v, dirty %v", err, e.Dirty())
	}
	if after, _ := os.ReadFile(p); string(after) != string(cut) {
		t.Fatal("the failed mirror changed the file")
	}
}

func TestRenameKeepsTheBindingAndRefusesMachineNames(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	var heard []string
	e.onBind = func(n string) { heard = append(heard, n) }
	turn(t, e, "one")
	if err := e.Save("a", false); err != nil {
		t.Fatal(err)
	}
	if err := e.Rename("a", "mcp-b"); !errors.Is(err, ErrReservedName) {
		t.Fatalf("rename to a machine name: %v", err)
	}
	if err := e.Rename("a", "b"); err != nil {
		t.Fatal(err)
	}
	if e.Bound() != "b" || f.store.Exists("a") || !f.store.Exists("b") {
		t.Fatalf("bound %q after renaming the bound session", e.Bound())
	}
	if len(heard) != 2 || heard[1] != "b" {
		t.Fatalf("OnBind heard %q", heard)
	}
	turn(t, e, "two")
	if s, err := f.store.Load("b"); err != nil || users(s.History) != "one,two" || f.store.Exists("a") {
		t.Fatalf("turn after rename: %v %v", s, err)
	}
	if err := e.Rename("missing", "c"); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("rename of a missing session: %v", err)
	}
}

// With the journal on, a mirror is a snapshot of the conversation's
// journal: a mirrored turn appends to the journal and leaves the file as
// it is until the tail outgrows the snapshot policy's bound, while Load
// and the listing see every turn. A file someone else rewrote is replaced
// whole.
func TestMirrorIsASnapshotOfTheJournal(t *testing.T) {
	_, journals, st, other := twoStores(t)
	e := New(Options{Store: st, Provider: offline.New(""), JournalDir: journals})
	mirror := func(prompt string) {
		t.Helper()
		turn(t, e, prompt)
		if err := e.Mirror("mcp-w1"); err != nil {
			t.Fatal(err)
		}
	}
	mirror("first")
	p, _ := st.Path("mcp-w1")
	before, _ := os.ReadFile(p)
	for i := range 20 {
		mirror(fmt.Sprint("small ", i))
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("a small mirrored turn rewrote the mirror file")
	}
	s, err := other.Load("mcp-w1")
	if err != nil || len(s.History) != 42 || !strings.HasSuffix(users(s.History), "small 19") {
		t.Fatalf("Load = %d messages (%v), want all 42", len(s.History), err)
	}
	if h, err := other.Stat("mcp-w1"); err != nil || h.Messages != 42 {
		t.Fatalf("Stat = %d messages (%v), want 42", h.Messages, err)
	}
	mirror(strings.Repeat("long ", snapshotMinTail/5)) // past the policy's bound: a snapshot
	if h, err := other.StatFile("mcp-w1"); err != nil || h.Messages != 44 {
		t.Fatalf("the file holds %d messages (%v) after a long turn, want 44", h.Messages, err)
	}
	// Another program rewrites the mirror: the next mirror replaces it.
	doc, _ := other.Load("mcp-w1")
	doc.History = doc.History[:2]
	if err := other.Save("mcp-w1", doc); err != nil {
		t.Fatal(err)
	}
	mirror("after")
	if s, err := other.Load("mcp-w1"); err != nil || len(s.History) != 46 {
		t.Fatalf("Load after a foreign rewrite = %d messages (%v), want 46", len(s.History), err)
	}
}

// Saving, forking or attaching a mirrored conversation under a new name hands its
// journal to that session: the mirror keeps what it held, and the
// session's later turns do not show through it.
func TestNamingAMirroredConversationFreezesTheMirror(t *testing.T) {
	for _, verb := range []string{"save", "fork", "attach"} {
		t.Run(verb, func(t *testing.T) {
			_, journals, st, other := twoStores(t)
			e := New(Options{Store: st, Provider: offline.New(""), JournalDir: journals})
			turn(t, e, "mirrored")
			if err := e.Mirror("mcp-f1"); err != nil {
				t.Fatal(err)
			}
			name := func() error { return e.Save("named", false) }
			switch verb {
			case "fork":
				name = func() error { return e.Fork("named") }
			case "attach": // a new session: created with the history
				name = func() error { _, _, err := e.Attach("named"); return err }
			}
			if err := name(); err != nil {
				t.Fatal(err)
			}
			turn(t, e, "later")
			if s, err := other.Load("mcp-f1"); err != nil || users(s.History) != "mirrored" {
				t.Fatalf("mirror after %s = %q (%v), want only the mirrored turn", verb, users(s.History), err)
			}
			if s, err := other.Load("named"); err != nil || users(s.History) != "mirrored,later" {
				t.Fatalf("session = %q (%v)", users(s.History), err)
			}
		})
	}
}

// After a load and a detach the conversation writes another journal: the
// old mirror, a snapshot of the first one, is rewritten whole by the next
// mirror, never taken as current (the conversation would be saved
// nowhere).
func TestMirrorAfterLoadAndDetachIsRewritten(t *testing.T) {
	_, journals, st, other := twoStores(t)
	e := New(Options{Store: st, Provider: offline.New(""), JournalDir: journals})
	turn(t, e, "mirrored")
	if err := e.Mirror("mcp-d1"); err != nil {
		t.Fatal(err)
	}
	b := New(Options{Store: other, Provider: offline.New(""), JournalDir: journals})
	turn(t, b, "b1")
	if err := b.Save("s2", false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Load("s2"); err != nil {
		t.Fatal(err)
	}
	e.Detach()
	turn(t, e, "after detach")
	if err := e.Mirror("mcp-d1"); err != nil {
		t.Fatal(err)
	}
	if s, err := other.Load("mcp-d1"); err != nil || users(s.History) != "b1,after detach" {
		t.Fatalf("mirror = %q (%v), want the live conversation", users(s.History), err)
	}
}
