package conversation

import (
	"errors"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// lineageOf loads session name and returns its lineage.
func lineageOf(t *testing.T, st *session.Store, name string) *session.Lineage {
	t.Helper()
	s, err := st.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	h, err := st.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if (s.Lineage == nil) != (h.Lineage == nil) || s.Lineage != nil && *s.Lineage != *h.Lineage {
		t.Fatalf("%s: the header's lineage %+v is not the file's %+v", name, h.Lineage, s.Lineage)
	}
	return s.Lineage
}

func TestEveryWayOfMakingASessionFromAnotherRecordsItsParent(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	if err := e.Save("main", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"one", "two", "three"} {
		turn(t, e, p)
	}
	if l := lineageOf(t, f.store, "main"); l != nil {
		t.Fatalf("a session made from nothing has no parent: %+v", l)
	}
	mainID := e.JournalID()
	check := func(name, parent, kind string, at int) {
		t.Helper()
		l := lineageOf(t, f.store, name)
		if l == nil || l.Parent != parent || l.Kind != kind || l.At != at || l.CreatedAt.IsZero() {
			t.Fatalf("%s: lineage %+v, want parent %s kind %s at %d", name, l, parent, kind, at)
		}
	}
	if err := e.Fork("whole"); err != nil {
		t.Fatal(err)
	}
	check("whole", "main", session.LineageFork, 6)
	if l := lineageOf(t, f.store, "whole"); l.ParentTranscript != mainID {
		t.Fatalf("the parent's journal is named: %q, want %q", l.ParentTranscript, mainID)
	}
	turn(t, e, "four") // whole goes on; a later save keeps its lineage
	check("whole", "main", session.LineageFork, 6)
	if _, err := e.ForkAt("cut", 3); err != nil {
		t.Fatal(err)
	}
	check("cut", "whole", session.LineageFork, 3)
	turn(t, e, "five")
	if _, _, err := e.Attach("attached"); err != nil {
		t.Fatal(err)
	}
	check("attached", "cut", session.LineageAttach, 5)
	if err := e.Save("saved", false); err != nil {
		t.Fatal(err)
	}
	check("saved", "attached", session.LineageSave, 5)
	// Detached, the conversation still came from the session it left: a
	// later save under a new name names it, sharing what it had then.
	e.Detach()
	turn(t, e, "six")
	if err := e.Save("after-detach", false); err != nil {
		t.Fatal(err)
	}
	check("after-detach", "saved", session.LineageSave, 5)
}

func TestForkCheckpointHoldsTheConversationBeforeThatPrompt(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	if err := e.Save("src", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"one", "two", "three"} {
		turn(t, e, p)
	}
	// Checkpoint 2 (the second newest) is the state before "two".
	if _, err := e.ForkCheckpoint("before-two", 2); err != nil {
		t.Fatal(err)
	}
	got, err := f.store.Load("before-two")
	if err != nil || users(got.History) != "one" {
		t.Fatalf("the fork holds %q, want the history before two: %v", users(got.History), err)
	}
	if src, _ := f.store.Load("src"); users(src.History) != "one,two,three" {
		t.Fatalf("the source changed: %q", users(src.History))
	}
	check := lineageOf(t, f.store, "before-two")
	if check == nil || check.Parent != "src" || check.At != 2 || check.Kind != session.LineageFork {
		t.Fatalf("lineage %+v", check)
	}
	// The fork keeps the older checkpoints: checkpoint 2 of the fork is
	// the empty conversation before "one".
	if cps := e.Checkpoints(); len(cps) != 2 || cps[0].Prompt != "two" || cps[1].Prompt != "one" {
		t.Fatalf("checkpoints of the fork: %+v", cps)
	}
	if _, err := e.ForkCheckpoint("x", 3); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("a checkpoint that does not exist: %v", err)
	}
	if _, err := e.ForkCheckpoint("src", 1); !errors.Is(err, session.ErrExists) {
		t.Fatalf("onto an existing session: %v", err)
	}
	// Once compacted away, the checkpoint's messages come from the journal.
	e2 := f.engine(nil)
	e2.setJournalDir(e.JournalDir())
	if _, err := e2.Load("src"); err != nil {
		t.Fatal(err)
	}
	summary := []message.Message{{Role: message.RoleUser, Content: "[summary]", Meta: &message.Meta{IsSummary: true}},
		{Role: message.RoleAssistant, Content: "ok"}}
	if err := e2.replace(summary, journal.ReasonCompact); err != nil {
		t.Fatal(err)
	}
	if _, err := e2.ForkCheckpoint("from-journal", 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.store.Load("from-journal"); users(got.History) != "one,two" {
		t.Fatalf("from the journal: %q", users(got.History))
	}
}
