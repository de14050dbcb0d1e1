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
	idx := s.listIndexPath()
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
	idx := s.listIndexPath()
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

// The list index lives beside the sessions folder, where ChatCLI (which
// lists every *.json file of the folder as a session) never sees it, and
// an index an earlier build left in the folder is removed.
func TestListIndexOutsideSessionsFolder(t *testing.T) {
	s := newStore(t)
	data, err := os.ReadFile("testdata/chatcli-1.188.0/demo1.json")
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(s.Dir(), oldListIndexFile)
	for p, b := range map[string][]byte{filepath.Join(s.Dir(), "demo1.json"): data, old: []byte(`{}`)} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if list, err := s.List(); err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	if _, err := os.Stat(s.listIndexPath()); err != nil || filepath.Dir(filepath.Dir(s.listIndexPath())) != filepath.Dir(s.Dir()) {
		t.Fatalf("no index at %s: %v", s.listIndexPath(), err)
	}
	entries, _ := os.ReadDir(s.Dir())
	for _, e := range entries {
		if e.Name() != "demo1.json" {
			t.Errorf("sessions folder holds %s", e.Name())
		}
	}
}
