package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// TestEncryptedFileNamesItsJournalPositionInTheSealedJournal: rekeying a
// plaintext session file whose journal holds turns the file does not (the
// journal sealed first, as storage rekey does) gives the sealed header a
// journal position placed in the sealed journal's lines, so listing
// counts the tail without reading the journal from its top.
func TestEncryptedFileNamesItsJournalPositionInTheSealedJournal(t *testing.T) {
	s := newStore(t)
	dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
	s.SetJournalDir(dir)
	j, _, err := journal.Open(dir, journal.NewID(), seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	h := []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"}}
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	if err := s.Save("s", &Session{TranscriptID: j.ID(), JournalPos: j.Pos(), History: h}); err != nil {
		t.Fatal(err)
	}
	h = append(h, message.Message{Role: message.RoleUser, Content: "second"}, message.Message{Role: message.RoleAssistant, Content: "b"})
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}

	key := testKey(t, 7)
	if _, _, err := journal.Rekey(j.Path(), seal.Key{}, key); err != nil {
		t.Fatal(err)
	}
	s.SetKey(key)
	p, _ := s.Path("s")
	if changed, err := s.RekeyFile("s", p, seal.Key{}); err != nil || !changed {
		t.Fatalf("rekey: %v %v", changed, err)
	}
	st, err := s.Stat("s")
	if err != nil || st.Messages != len(h) {
		t.Fatalf("listed with %d messages (%v), want %d", st.Messages, err, len(h))
	}
	file, _ := s.StatFile("s")
	if placed, err := journal.Place(j.Path(), key, file.JournalPos); err != nil || placed != file.JournalPos || file.JournalPos.Seq != 2 {
		t.Fatalf("the sealed header names %+v, the sealed journal has it at %+v (%v)", file.JournalPos, placed, err)
	}

	// A file sealed by a build that left the position out of the sealed
	// header (listing then missed the tail) gets it at its next rekey.
	sealed := readBytes(t, p)
	hdr, body, err := openContainer(key, "s", sealed)
	if err != nil {
		t.Fatal(err)
	}
	hdr.JournalPos = nil
	older, err := sealContainer(key, "s", hdr, body)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, older, 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stat("s"); st.Messages != 2 {
		t.Fatalf("the older sealed file lists %d messages", st.Messages)
	}
	nw := testKey(t, 8)
	if _, _, err := journal.Rekey(j.Path(), key, nw); err != nil {
		t.Fatal(err)
	}
	s.SetKey(nw)
	if changed, err := s.RekeyFile("s", p, key); err != nil || !changed {
		t.Fatalf("rekey: %v %v", changed, err)
	}
	if st, err := s.Stat("s"); err != nil || st.Messages != len(h) {
		t.Fatalf("after a rekey of the older sealed file: %d messages listed (%v), want %d", st.Messages, err, len(h))
	}
}
