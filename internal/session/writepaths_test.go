package session

import (
	"path/filepath"
	"testing"
)

// Every plaintext file the store writes or moves carries its mark, so
// the next listing reads only its header block: a save, a fork (Create),
// a rename, a trashed and restored session, a copy put in the trash and
// restored, and a sealed session decrypted in place, in the sessions
// folder and in the trash.
func TestEveryPlaintextWriteIsMarked(t *testing.T) {
	s := newStore(t)
	if !attrsKept(t, s) {
		t.Skip("the file system keeps no extended attributes")
	}
	file := func(name string) string { return filepath.Join(s.Dir(), name+".json") }
	check := func(what, p string) {
		t.Helper()
		if !marked(t, p) {
			t.Errorf("%s: %s carries no mark", what, filepath.Base(p))
		}
	}
	if err := s.Save("a", longSession()); err != nil {
		t.Fatal(err)
	}
	check("save", file("a"))
	if _, err := s.Fork("a", "b"); err != nil {
		t.Fatal(err)
	}
	check("fork", file("b"))
	if err := s.Rename("b", "c"); err != nil {
		t.Fatal(err)
	}
	check("rename", file("c"))
	if _, err := s.Trash("c"); err != nil {
		t.Fatal(err)
	}
	if err := s.Restore("c"); err != nil {
		t.Fatal(err)
	}
	check("restore", file("c"))
	copied, err := s.TrashCopy("a")
	if err != nil {
		t.Fatal(err)
	}
	check("copy to the trash", copied.Path)
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Restore("a"); err != nil {
		t.Fatal(err)
	}
	check("restore of the copy", file("a"))

	k := reopen(t, s, testKey(t, 1))
	if err := k.Save("sealed", longSession()); err != nil {
		t.Fatal(err)
	}
	trashed, err := k.TrashCopy("sealed")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, path string }{{"sealed", file("sealed")}, {"sealed", trashed.Path}} {
		if changed, err := k.DecryptFile(f.name, f.path); err != nil || !changed {
			t.Fatalf("decrypt %s: %v %v", f.path, changed, err)
		}
		check("decrypt", f.path)
	}
}
