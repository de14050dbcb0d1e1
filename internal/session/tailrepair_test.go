package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// damagedJournal writes, as journal id in s's journal folder, a stray
// line then one record per message of h, the stray line as long as the
// last record's line, so that journal.Repair, leaving the stray line out,
// makes the journal exactly as long as the position after the record
// before the last, which it returns. Lines are sealed with s's key when it
// has one.
func damagedJournal(t *testing.T, s *Store, id string, h []message.Message) journal.Pos {
	t.Helper()
	var lines [][]byte
	for i, hash := range journal.HashHistory(h) {
		r := journal.Record{Type: journal.TypeMessage, Seq: int64(i + 1), At: time.Date(2026, 11, 30, 9, 0, i, 0, time.UTC),
			Hash: hash, Message: &h[i]}
		line, err := journal.EncodeRecord(&r)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Key().IsZero() {
			if line, err = seal.SealLine(s.Key(), journal.LineName(id), bytes.TrimSuffix(line, []byte("\n"))); err != nil {
				t.Fatal(err)
			}
			line = append(line, '\n')
		}
		lines = append(lines, line)
	}
	last := len(lines) - 1
	stray := append(bytes.Repeat([]byte("x"), len(lines[last])-1), '\n')
	if err := os.MkdirAll(s.JournalDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journal.Path(s.JournalDir(), id), bytes.Join(append([][]byte{stray}, lines...), nil), 0o600); err != nil {
		t.Fatal(err)
	}
	return journal.Pos{Seq: int64(last), Offset: int64(len(bytes.Join(lines[:last], nil)) + len(stray)), Line: last + 2}
}

func repairJournal(t *testing.T, s *Store, id string) {
	t.Helper()
	if rep, err := journal.Repair(journal.Path(s.JournalDir(), id), s.Key()); err != nil || rep.Broken == "" {
		t.Fatalf("repair: %+v %v", rep, err)
	}
}

func repairStores(t *testing.T) map[string]*Store {
	stores := map[string]*Store{}
	for _, kind := range []string{"plaintext", "sealed"} {
		s := newStore(t)
		s.SetJournalDir(filepath.Join(filepath.Dir(s.Dir()), "transcripts"))
		if kind == "sealed" {
			s.SetKey(testKey(t, 5))
		}
		stores[kind] = s
	}
	return stores
}

var threeTurns = []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"},
	{Role: message.RoleUser, Content: "second"}}

// A journal repaired to exactly the length of the offset a session file
// names still holds the record after the file's position: List, Stat
// and Load count it, whether the file was listed (and indexed) before
// the repair or not.
func TestListCountsTheTailOfAJournalRepairedToTheFilesOffset(t *testing.T) {
	ageListIndex(t)
	for kind, s := range repairStores(t) {
		id := journal.NewID()
		pos := damagedJournal(t, s, id, threeTurns)
		for _, name := range []string{"listed", "unlisted"} {
			if err := s.Save(name, &Session{TranscriptID: id, JournalPos: pos, History: threeTurns[:2]}); err != nil {
				t.Fatal(err)
			}
			p, _ := s.Path(name)
			old := time.Now().Add(-time.Hour) // written well before the repair, not within its clock tick
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			if name == "listed" {
				if list, err := s.List(); err != nil || len(list) != 1 || list[0].Messages != 3 {
					t.Fatalf("%s: before the repair: %+v %v", kind, list, err)
				}
			}
		}
		repairJournal(t, s, id)
		list, err := s.List()
		if err != nil || len(list) != 2 {
			t.Fatal(list, err)
		}
		for _, h := range list {
			if h.Err != nil || h.Messages != 3 {
				t.Errorf("%s: listed %s with %d messages (%v), want 3", kind, h.Name, h.Messages, h.Err)
			}
			if st, err := s.Stat(h.Name); err != nil || st.Messages != 3 {
				t.Errorf("%s: Stat %s: %d messages (%v), want 3", kind, h.Name, st.Messages, err)
			}
			if sess, err := s.Load(h.Name); err != nil || len(sess.History) != 3 {
				t.Errorf("%s: Load %s: %v", kind, h.Name, err)
			}
		}
	}
}
