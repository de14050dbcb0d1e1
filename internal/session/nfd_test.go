package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// A session file named in NFD by hand (synced from macOS) opens, saves
// and deletes under either spelling, and comes back from the trash under
// the NFC one.
func TestAnNFDFileNameOpensAndDeletesUnderEitherSpelling(t *testing.T) {
	st := newStore(t)
	nfc := "café-notas"
	nfd := norm.NFD.String(nfc)
	if nfd == nfc {
		t.Fatal("the test needs a name whose NFD differs")
	}
	if err := st.Save("seed", sample()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(st.Dir(), "seed.json"), filepath.Join(st.Dir(), nfd+".json")); err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{nfc, nfd} {
		if _, err := st.Load(spelling); err != nil {
			t.Errorf("Load(%q): %v", []rune(spelling), err)
		}
	}
	s, _ := st.Load(nfc)
	if err := st.Save(nfc, s); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(st.Dir()); countJSON(ents) != 1 {
		t.Errorf("a save under the NFC spelling made a second file: %v", ents)
	}
	if _, err := st.Trash(nfc); err != nil {
		t.Fatalf("Trash(NFC): %v", err)
	}
	if _, err := os.Lstat(filepath.Join(st.Dir(), nfd+".json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the NFD file is still there after Trash: %v", err)
	}
	if err := st.Restore(nfd); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if _, err := st.Load(nfc); err != nil {
		t.Errorf("Load after Restore: %v", err)
	}
	if err := os.Rename(filepath.Join(st.Dir(), nfc+".json"), filepath.Join(st.Dir(), nfd+".json")); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(nfc); err != nil {
		t.Fatalf("Delete(NFC): %v", err)
	}
	if ents, _ := os.ReadDir(st.Dir()); countJSON(ents) != 0 {
		t.Errorf("left after Delete: %v", ents)
	}
}

func countJSON(ents []os.DirEntry) int {
	n := 0
	for _, e := range ents {
		if filepath.Ext(e.Name()) == ".json" && e.Name()[0] != '.' {
			n++
		}
	}
	return n
}
