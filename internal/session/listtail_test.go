package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// TestListedFromTheIndexWithTheJournalTail: a header the list index
// answers for is brought up to date with the records its journal holds
// after the file's journal_pos, like a header read from the file. It is
// the case for a file in chatcli's layout and for one the scan reads (the
// same document re-indented), where the index once kept the count with the
// tail of its first listing and no journal position, so later turns were
// not listed.
func TestListedFromTheIndexWithTheJournalTail(t *testing.T) {
	ageListIndex(t)
	s := newStore(t)
	dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
	s.SetJournalDir(dir)
	j, _, err := journal.Open(dir, journal.NewID(), s.Key())
	if err != nil {
		t.Fatal(err)
	}
	h := []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"}}
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	sess := &Session{TranscriptID: j.ID(), JournalPos: j.Pos(), History: h}
	if err := s.Save("layout", sess); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("layout")
	var doc map[string]any
	if err := json.Unmarshal(readBytes(t, p), &doc); err != nil {
		t.Fatal(err)
	}
	indented, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(filepath.Join(s.Dir(), "scanned.json"), indented, 0o600); err != nil {
		t.Fatal(err)
	}
	want := len(h)
	for turn := range 3 {
		if turn > 0 {
			h = append(h, message.Message{Role: message.RoleUser, Content: "more"}, message.Message{Role: message.RoleAssistant, Content: "b"})
			if _, err := j.Sync(h, journal.ReasonSync); err != nil {
				t.Fatal(err)
			}
			want = len(h)
		}
		list, err := s.List()
		if err != nil || len(list) != 2 {
			t.Fatal(list, err)
		}
		for _, l := range list {
			if l.Err != nil || l.Messages != want {
				t.Errorf("listing %d, %s: %d messages (%v), want %d", turn, l.Name, l.Messages, l.Err, want)
			}
		}
		if idx := s.readListIndex(); len(idx) != 2 {
			t.Fatalf("listing %d: the index holds %d entries, want 2", turn, len(idx))
		}
	}
}
