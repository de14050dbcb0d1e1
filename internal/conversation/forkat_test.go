package conversation

import (
	"errors"
	"strings"
	"testing"
)

func TestForkAtKeepsTheSourceAndTheUnsaved(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	for _, p := range []string{"one", "two", "three"} {
		turn(t, e, p)
	}
	// Unbound with unsaved turns: they are autosaved before the cut.
	autosaved, err := e.ForkAt("early", 2)
	if err != nil || autosaved == "" || e.Bound() != "early" || len(e.History()) != 2 {
		t.Fatalf("fork at 2: autosaved %q, bound %q, %d messages, %v", autosaved, e.Bound(), len(e.History()), err)
	}
	if s, err := f.store.Load(autosaved); err != nil || len(s.History) != 6 {
		t.Fatalf("the unsaved conversation was not kept whole: %v", err)
	}
	turn(t, e, "four")
	// Bound: the source keeps every message; the fork holds transcript
	// messages 1..3, and the transcript numbers every message in the order
	// it first appeared (the cut-off "two" is message 3).
	if _, err := e.ForkAt("later", 3); err != nil {
		t.Fatal(err)
	}
	early, _ := f.store.Load("early")
	later, _ := f.store.Load("later")
	if len(early.History) != 4 || early.History[2].Content != "four" {
		t.Fatalf("the source changed: %+v", early.History)
	}
	if len(later.History) != 3 || later.History[0].Content != "one" || later.History[2].Content != "two" {
		t.Fatalf("later: %+v", later.History)
	}
	if _, err := e.ForkAt("x", 0); !errors.Is(err, ErrNoMessage) {
		t.Fatalf("at 0: %v", err)
	}
	if _, err := e.ForkAt("early", 1); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("onto an existing session: %v", err)
	}
	if _, err := e.ForkAt("autosave-x", 1); !errors.Is(err, ErrReservedName) {
		t.Fatalf("reserved name: %v", err)
	}
}
