package conversation

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

func TestRewindSurvivesInsertedMessagesAndReload(t *testing.T) { // case rw-1
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	e.Save("s", false)
	turn(t, e, "turn 1")
	turn(t, e, "turn 2")
	// A summary inserted between turns 2 and 3 (as a compaction or repair
	// notice would): positions shift, hashes do not.
	notice := message.Message{Role: message.RoleUser, Content: "[COMPACT — covering 0 earlier messages]", Meta: &message.Meta{IsSummary: true}}
	e.replace(append([]message.Message{notice}, e.History()...), journal.ReasonCompact)
	for _, p := range []string{"turn 3", "turn 4", "turn 5"} {
		turn(t, e, p)
	}
	cps := e.Checkpoints()
	if len(cps) != 5 || cps[2].Prompt != "turn 3" {
		t.Fatalf("checkpoints: %+v", cps)
	}
	want := strings.Join([]string{notice.Content, "turn 1", "turn 2"}, ",")
	if _, err := e.Rewind(3); err != nil {
		t.Fatal(err)
	}
	if got := users(e.History()); got != want {
		t.Fatalf("after rewind: %q", got)
	}
	e.Close(true) // exit without sending

	e2 := f.engine(nil)
	e2.setJournalDir(dir)
	if _, err := e2.Load("s"); err != nil {
		t.Fatal(err)
	}
	if got := users(e2.History()); got != want || len(e2.Checkpoints()) != 3 {
		t.Fatalf("after reload: %q, %d checkpoints", got, len(e2.Checkpoints()))
	}
}

func TestRewindToMessagesOnlyTheJournalHolds(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	e.Save("s", false)
	for _, p := range []string{"a", "b", "c"} {
		turn(t, e, p)
	}
	full := e.History()
	// A compaction drops the first turns from the live history.
	summary := message.Message{Role: message.RoleUser, Content: "[COMPACT — covering 4 earlier messages]", Meta: &message.Meta{IsSummary: true, SummaryOf: 4}}
	e.replace(append([]message.Message{summary}, full[4:]...), journal.ReasonCompact)

	e2 := f.engine(nil) // after a restart
	e2.setJournalDir(dir)
	e2.Load("s")
	if len(e2.Checkpoints()) != 3 {
		t.Fatalf("checkpoints after reload: %d (notices %v)", len(e2.Checkpoints()), f.notices)
	}
	// /rewind compact restores the exact pre-compaction history.
	if n, err := e2.UndoCompact(); err != nil || n != len(full) || users(e2.History()) != "a,b,c" {
		t.Fatalf("undo compaction: %d %v %q", n, err, users(e2.History()))
	}
	e2.replace(append([]message.Message{summary}, full[4:]...), journal.ReasonCompact)
	if _, err := e2.Rewind(2); err != nil { // before "b": needs "a" and its reply from the journal
		t.Fatal(err)
	}
	if users(e2.History()) != "a" {
		t.Fatalf("got %q", users(e2.History()))
	}
}

func TestCheckpointWithoutItsMessagesIsDroppedWithANotice(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	e.Save("s", false)
	turn(t, e, "a")
	turn(t, e, "b")
	s, _ := f.store.Load("s")
	e.replace(e.History()[2:], journal.ReasonCompact)
	e.Close(false)                               // the file is written: the journal's snapshot
	os.Remove(journal.Path(dir, s.TranscriptID)) // the journal is gone
	f.notices = nil
	e2 := f.engine(nil)
	e2.setJournalDir(dir)
	e2.Load("s")
	// "a" started from the empty history: always restorable. "b" needed
	// "a" and its reply, which only the lost journal held: a rewind to it
	// fails and drops it, saying so (a load does not read the journal to
	// check every checkpoint).
	if len(e2.Checkpoints()) != 2 {
		t.Fatalf("checkpoints after load: %d", len(e2.Checkpoints()))
	}
	if _, err := e2.Rewind(1); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("rewind to b: %v", err)
	}
	if len(e2.Checkpoints()) != 1 || len(f.notices) != 1 || !strings.Contains(f.notices[0], `dropped checkpoint "b"`) {
		t.Fatalf("checkpoints %d, notices %v", len(e2.Checkpoints()), f.notices)
	}
	if _, err := e2.Rewind(1); err != nil { // "a" still works
		t.Fatal(err)
	}
}
