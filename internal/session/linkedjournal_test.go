package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/storefile"
)

// A journal that is a link is not looked at through it: a link to a copy
// of the journal whose size matches the file's journal position is
// refused by Load, not taken for a journal with nothing after it.
func TestALinkedJournalIsNotMeasuredThroughItsLink(t *testing.T) {
	s, j, _ := journalledSession(t)
	copyAt := filepath.Join(t.TempDir(), "copy.jsonl")
	if err := os.Rename(j.Path(), copyAt); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(copyAt, j.Path()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("n"); !errors.Is(err, storefile.ErrNotRegular) {
		t.Errorf("load with a linked journal: %v, want an error wrapping ErrNotRegular", err)
	}
}

// journalledSession is a store with a journal folder and session n of
// two messages, saved at the position of its journal, which holds them.
func journalledSession(t *testing.T) (*Store, *journal.Journal, []message.Message) {
	t.Helper()
	s := newStore(t)
	dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
	s.SetJournalDir(dir)
	h := []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"}}
	j, _, err := journal.Open(dir, journal.NewID(), s.Key())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	if err := s.Save("n", &Session{TranscriptID: j.ID(), JournalPos: j.Pos(), History: h}); err != nil {
		t.Fatal(err)
	}
	return s, j, h
}
