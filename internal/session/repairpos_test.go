package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
)

// PlaceJournal gives the files naming a repaired journal, in the sessions
// folder and in the trash, the position the journal has now, changing
// nothing else; a file naming another journal is left as it is.
func TestPlaceJournalAfterARepair(t *testing.T) {
	for kind, s := range repairStores(t) {
		id := journal.NewID()
		pos := damagedJournal(t, s, id, threeTurns)
		for _, name := range []string{"live", "trashed"} {
			if err := s.Save(name, &Session{TranscriptID: id, JournalPos: pos, History: threeTurns[:2]}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Trash("trashed"); err != nil {
			t.Fatal(err)
		}
		other := journal.NewID()
		if err := s.Save("other", &Session{TranscriptID: other, JournalPos: pos, History: threeTurns[:2]}); err != nil {
			t.Fatal(err)
		}
		otherPath, _ := s.Path("other")
		otherBefore := readBytes(t, otherPath)
		live, _ := s.Path("live")
		liveBefore := s.document(t, "live", live)
		repairJournal(t, s, id)

		n, err := s.PlaceJournal(s.JournalDir(), id)
		if err != nil || n != 2 {
			t.Fatalf("%s: placed %d files (%v), want 2", kind, n, err)
		}
		want, err := journal.Place(journal.Path(s.JournalDir(), id), s.Key(), pos)
		if err != nil || want == pos {
			t.Fatalf("%s: the journal places the position at %+v (%v)", kind, want, err)
		}
		if got := s.document(t, "live", live); !bytes.Equal(got, bytes.Replace(liveBefore, posJSON(pos), posJSON(want), 1)) {
			t.Errorf("%s: the file changed beyond its journal_pos:\n%s\n%s", kind, liveBefore, got)
		}
		h, err := s.StatFile("live")
		if err != nil || h.JournalPos != want || h.Revision != 1 {
			t.Errorf("%s: the file's header: %+v %v", kind, h, err)
		}
		trash, err := s.TrashList()
		if err != nil || len(trash) != 1 {
			t.Fatal(trash, err)
		}
		if th, err := s.header("trashed", trash[0].Path); err != nil || th.JournalPos != want {
			t.Errorf("%s: the trashed copy names %+v (%v), want %+v", kind, th.JournalPos, err, want)
		}
		if !bytes.Equal(readBytes(t, otherPath), otherBefore) {
			t.Errorf("%s: a file naming another journal was rewritten", kind)
		}
		if n, err := s.PlaceJournal(s.JournalDir(), id); err != nil || n != 0 {
			t.Errorf("%s: placed again: %d (%v), want none", kind, n, err)
		}
		if list, err := s.List(); err != nil || len(list) != 2 || list[0].Name != "live" && list[1].Name != "live" {
			t.Fatal(list, err)
		} else {
			for _, l := range list {
				if l.Name == "live" && l.Messages != 3 {
					t.Errorf("%s: listed with %d messages, want 3", kind, l.Messages)
				}
			}
		}
	}
}

// A position after a record the repair left out, with every later one,
// can no longer be placed: PlaceJournal removes it, so the file stands on
// its own and the records appended to the journal later, numbered from
// its last record on, are not taken for records the file covers.
func TestPlaceJournalRemovesAPositionTheJournalLost(t *testing.T) {
	for kind, s := range repairStores(t) {
		id := journal.NewID()
		damagedJournal(t, s, id, threeTurns)
		lost := journal.Pos{Seq: 9, Offset: 4096, Line: 10}
		if err := s.Save("lost", &Session{TranscriptID: id, JournalPos: lost, History: threeTurns}); err != nil {
			t.Fatal(err)
		}
		p, _ := s.Path("lost")
		before := s.document(t, "lost", p)
		repairJournal(t, s, id)
		if n, err := s.PlaceJournal(s.JournalDir(), id); err != nil || n != 1 {
			t.Fatalf("%s: placed %d (%v)", kind, n, err)
		}
		got := s.document(t, "lost", p)
		if want := bytes.Replace(before, append([]byte(",\n\"journal_pos\":"), posJSON(lost)...), nil, 1); !bytes.Equal(got, want) {
			t.Errorf("%s: the file changed beyond its journal_pos:\n%s\n%s", kind, before, got)
		}
		if h, err := s.StatFile("lost"); err != nil || h.JournalPos != (journal.Pos{}) || h.Messages != 3 {
			t.Errorf("%s: %+v %v", kind, h, err)
		}
	}
}

// A session file PlaceJournal cannot edit in place (not in chatcli's
// layout) is reported and left as it is.
func TestPlaceJournalLeavesAForeignLayout(t *testing.T) {
	s := repairStores(t)["plaintext"]
	id := journal.NewID()
	pos := damagedJournal(t, s, id, threeTurns)
	doc := fmt.Sprintf(`{"version":2, "transcript_id":%q, "journal_pos":{"seq":%d,"offset":%d,"line":%d}, "message_count":2,
"chat_history":[{"role":"user","content":"first"},{"role":"assistant","content":"a"}]}`, id, pos.Seq, pos.Offset, pos.Line)
	p := filepath.Join(s.Dir(), "foreign.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	repairJournal(t, s, id)
	n, err := s.PlaceJournal(s.JournalDir(), id)
	if n != 0 || err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("placed %d (%v)", n, err)
	}
	if string(readBytes(t, p)) != doc {
		t.Fatal("the file was rewritten")
	}
}

// document is the session document of file p of session name: the file,
// or a sealed file's body.
func (s *Store) document(t *testing.T, name, p string) []byte {
	t.Helper()
	data := readBytes(t, p)
	if !IsSealedFile(data) {
		return data
	}
	_, body, err := openContainer(s.key, name, data)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func posJSON(p journal.Pos) []byte {
	return fmt.Appendf(nil, `{"seq":%d,"offset":%d,"line":%d}`, p.Seq, p.Offset, p.Line)
}
