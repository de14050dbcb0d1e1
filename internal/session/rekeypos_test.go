package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// TestRekeyedAndDecryptedFilesNameTheJournalPositionAsTheJournalHasIt: a
// session file whose journal holds turns the file does not, sealed,
// rekeyed and decrypted (its journal first, as storage rekey and decrypt
// do), names in its header and in its document the journal position as
// the journal's lines now have it, so that listing counts the tail
// (sealing once left the position out of the sealed header) and readers
// read only the tail, never the journal from its top at every listing.
func TestRekeyedAndDecryptedFilesNameTheJournalPositionAsTheJournalHasIt(t *testing.T) {
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
	placedAt(t, s, "s", j.Path(), 2)

	// A file sealed by a build that left the position out of the sealed
	// header (listing then missed the tail) gets it at its next rekey.
	sealed := readBytes(t, p)
	hdr, body, err := openContainer(key, "s", sealed)
	if err != nil {
		t.Fatal(err)
	}
	hdr.JournalPos = nil
	older, err := sealContainerV1(key, "s", hdr, body)
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
	placedAt(t, s, "s", j.Path(), 2)

	// Decrypted, the journal first: the plaintext file names the position
	// in the plaintext journal.
	if _, _, err := journal.Decrypt(j.Path(), nw); err != nil {
		t.Fatal(err)
	}
	if changed, err := s.DecryptFile("s", p); err != nil || !changed {
		t.Fatalf("decrypt: %v %v", changed, err)
	}
	s.SetKey(seal.Key{})
	if st, err := s.Stat("s"); err != nil || st.Messages != len(h) {
		t.Fatalf("after decrypting: %d messages listed (%v), want %d", st.Messages, err, len(h))
	}
	placedAt(t, s, "s", j.Path(), 2)
}

// placedAt checks that session name's file, in its header and in its
// document, names the position after record seq of the journal at path
// as the journal's lines are now.
func placedAt(t *testing.T, s *Store, name, path string, seq int64) {
	t.Helper()
	file, err := s.StatFile(name)
	if err != nil {
		t.Fatal(err)
	}
	placed, err := journal.Place(path, s.Key(), file.JournalPos)
	if err != nil || placed != file.JournalPos || placed.Seq != seq {
		t.Fatalf("the file's header names %+v, the journal has it at %+v (%v)", file.JournalPos, placed, err)
	}
	p, _ := s.Path(name)
	doc, _, err := s.decodePath(name, p) // the file alone, without its journal's tail
	if err != nil || doc.JournalPos != placed {
		t.Fatalf("the file's document names %+v (%v), the journal has it at %+v", doc.JournalPos, err, placed)
	}
}
