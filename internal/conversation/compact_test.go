package conversation

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

func TestCompactionIsJournalledAndUndoableAfterARestart(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	for i := range 12 {
		turn(t, e, fmt.Sprintf("question %d: %s", i, strings.Repeat("why does the parser fail? ", 20)))
	}
	e.Save("s", false)
	before := e.History()
	recsBefore, _, _ := journal.ReadAll(journal.Path(dir, e.JournalID()), seal.Key{})
	res, err := e.Compact(context.Background(), "", nil)
	if err != nil || res.Level != 2 || len(e.History()) >= len(before) {
		t.Fatalf("compact: %v level %d, %d messages", err, res.Level, len(e.History()))
	}
	recs, _, _ := journal.ReadAll(journal.Path(dir, e.JournalID()), seal.Key{})
	if added := recs[len(recsBefore):]; len(added) != 2 || added[0].Type != journal.TypeMessage || added[1].Reason != journal.ReasonCompact {
		t.Fatalf("a compaction must add the summary and one rewrite record, got %+v", added)
	}
	s, _ := f.store.Load("s")
	if len(s.History) != len(e.History()) || !s.History[0].Meta.IsSummary {
		t.Fatal("the compaction was not written through")
	}

	e2 := f.engine(nil) // after a restart
	e2.setJournalDir(dir)
	e2.Load("s")
	if _, err := e2.UndoCompact(); err != nil || users(e2.History()) != users(before) || len(e2.History()) != len(before) {
		t.Fatalf("undo: %v", err)
	}
}

func TestAutoCompactionRunsOnceBeforeAnOversizedRequest(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.contextWindow = 2048
	long := strings.Repeat("lorem ipsum ", 60)
	for i := range 20 {
		turn(t, e, fmt.Sprintf("%d %s", i, long))
	}
	if !strings.Contains(strings.Join(f.notices, "\n"), "compacting before sending") {
		t.Fatalf("auto-compaction must be announced: %v", f.notices)
	}
	if err := message.Validate(e.History()); err != nil {
		t.Fatal(err)
	}
	summaries := 0
	for _, m := range e.History() {
		if m.Meta != nil && m.Meta.IsSummary {
			summaries++
		}
	}
	if summaries != 1 || !strings.HasPrefix(users(e.History()[len(e.History())-2:]), "19 ") {
		t.Fatalf("%d summaries; the latest request must stay last", summaries)
	}
}

func TestNothingToGainIsSaidOnceAndTheRequestStillGoes(t *testing.T) { // case cmp-2
	f := newFixture(t)
	e := f.engine(nil)
	e.contextWindow = 1024
	e.history = []message.Message{{Role: message.RoleSystem, Content: strings.Repeat("rules ", 2000)}}
	turn(t, e, "hello")
	var announced, cannot int
	for _, n := range f.notices {
		if strings.Contains(n, "compacting before sending") {
			announced++
		}
		if strings.Contains(n, "cannot reduce further") {
			cannot++
		}
	}
	if announced != 1 || cannot != 1 || e.History()[0].Content != strings.Repeat("rules ", 2000) {
		t.Fatalf("announced %d, cannot %d: %v", announced, cannot, f.notices)
	}
	if _, err := e.Compact(context.Background(), "", nil); err == nil {
		t.Fatal("a manual compaction with nothing to gain must say so")
	}
	_ = compact.ErrNothingToGain
}

func TestCompactingASessionThatHadNoJournalIsUndoable(t *testing.T) {
	f := newFixture(t)
	var h []message.Message
	for i := range 12 {
		h = append(h, message.Message{Role: "user", Content: fmt.Sprintf("q%d %s", i, strings.Repeat("detail ", 30))},
			message.Message{Role: "assistant", Content: "a"})
	}
	f.store.Save("old", &session.Session{History: h}) // written without a journal
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	e.Load("old")
	if _, err := e.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if n, err := e.UndoCompact(); err != nil || n != len(h) {
		t.Fatalf("undo: %d %v", n, err)
	}
}

func TestUndoCompactRefusesAnotherBranch(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	for i := range 12 {
		turn(t, e, fmt.Sprintf("q%d %s", i, strings.Repeat("detail ", 30)))
	}
	if _, err := e.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Rewind(len(e.Checkpoints()) - 2); err != nil { // back before the compaction
		t.Fatal(err)
	}
	turn(t, e, "branch B")
	if _, err := e.UndoCompact(); err == nil || !strings.Contains(err.Error(), "moved on") {
		t.Fatalf("want a refusal, got %v", err)
	}
	if !strings.Contains(users(e.History()), "branch B") {
		t.Fatal("the branch was dropped")
	}
}

// With the journal off, a compaction of a saved session first puts the
// session as it was in the trash and says so: no compaction leaves the
// original messages nowhere on disk.
func TestCompactionWithTheJournalOffKeepsTheOriginalInTheTrash(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil) // no journal
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		turn(t, e, fmt.Sprintf("q%d %s", i, strings.Repeat("detail ", 30)))
	}
	before := len(e.History())
	f.notices = nil
	if _, err := e.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if len(e.History()) >= before {
		t.Fatalf("nothing compacted: %d messages", len(e.History()))
	}
	list, err := f.store.TrashList()
	if err != nil || len(list) != 1 || list[0].Name != "s" {
		t.Fatalf("trash: %+v %v", list, err)
	}
	kept, err := f.store.LoadFile("s", list[0].Path)
	if err != nil || len(kept.History) != before {
		t.Fatalf("the trashed copy holds %d messages (%v), want %d", len(kept.History), err, before)
	}
	if len(f.notices) == 0 || !strings.Contains(strings.Join(f.notices, "\n"), "kept in the trash") {
		t.Fatalf("not announced: %v", f.notices)
	}
	if s, _ := f.store.Load("s"); len(s.History) != len(e.History()) {
		t.Fatalf("the session holds %d messages, want the compacted %d", len(s.History), len(e.History()))
	}
}
