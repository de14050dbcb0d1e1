package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// foreignFile writes a session in another program's layout (no
// message_count), whose header List keeps in the list index, and returns
// its path.
func foreignFile(t *testing.T, s *Store, name, title string) string {
	t.Helper()
	p := filepath.Join(s.Dir(), name+".json")
	doc := `{"version":2,"title":"` + title + `","chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}`
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRekeyDropsTheListIndexEntry: sealing a file whose header the list
// index holds removes it from the index, so its title is not left in
// plaintext; the other entries stay.
func TestRekeyDropsTheListIndexEntry(t *testing.T) {
	s := newStore(t)
	p := foreignFile(t, s, "secret", marker+" title")
	foreignFile(t, s, "other", "other title")
	if l, err := s.List(); err != nil || len(l) != 2 {
		t.Fatal(l, err)
	}
	idx := filepath.Join(s.Dir(), listIndexFile)
	if !bytes.Contains(readBytes(t, idx), []byte(marker)) {
		t.Fatal("the list index was not written: the test proves nothing")
	}
	k := reopen(t, s, testKey(t, 1))
	if changed, err := k.RekeyFile("secret", p, testKey(t, 1)); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if data := readBytes(t, idx); bytes.Contains(data, []byte(marker)) || !bytes.Contains(data, []byte("other title")) {
		t.Fatalf("list index after rekey: %s", data)
	}
	if l, err := k.List(); err != nil || len(l) != 2 {
		t.Fatal(l, err)
	}
	if bytes.Contains(readBytes(t, idx), []byte(marker)) {
		t.Fatal("a listing put the title back")
	}
}

// TestSealedSaveDropsTheListIndexEntry: saving with a key over a file the
// list index holds removes its entry too.
func TestSealedSaveDropsTheListIndexEntry(t *testing.T) {
	s := newStore(t)
	foreignFile(t, s, "secret", marker+" title")
	if _, err := s.List(); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(s.Dir(), listIndexFile)
	if !bytes.Contains(readBytes(t, idx), []byte(marker)) {
		t.Fatal("the list index was not written: the test proves nothing")
	}
	k := reopen(t, s, testKey(t, 1))
	sess, err := k.Load("secret")
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Save("secret", sess); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(idx); err == nil && bytes.Contains(data, []byte(marker)) {
		t.Fatalf("list index after a sealed save: %s", data)
	}
}
