package session

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// indexAsListed gives file p, of session name, the list index entry a
// listing made long after the file's last change would have made (List
// itself would mark the file where the file system keeps attributes).
func indexAsListed(t *testing.T, s *Store, p string) Header {
	t.Helper()
	h, err := readHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	idx := listIndex{}
	idx.store(filepath.Base(p), h, time.Now().Add(time.Minute))
	s.writeListIndex(idx)
	return h
}

// Where a file carries no mark (a file system without user attributes,
// or a file another program wrote), Stat asks the list index before
// reading the file whole, as List does: an indexed file is not read past
// its header block, and a file changed behind the index is read whole
// again (here found corrupt).
func TestStatOfAnUnmarkedFileAsksTheListIndex(t *testing.T) {
	s := newStore(t)
	if err := s.Save("src", longSession()); err != nil {
		t.Fatal(err)
	}
	p := unmarkedCopy(t, s, "src", "long")
	if marked(t, p) {
		t.Fatal("the copy is marked")
	}
	want := indexAsListed(t, s, p)
	reads := countWholeReads(t)
	for range 3 {
		h, err := s.Stat("long")
		if err != nil || h.Messages != 80 || h.Title != want.Title || h.Revision != want.Revision || h.SizeBytes != want.SizeBytes {
			t.Fatalf("Stat: %+v %v", h, err)
		}
	}
	if reads["long.json"] != 0 {
		t.Fatalf("Stat read the indexed file whole %d times", reads["long.json"])
	}

	breakInPlace(t, p)
	if _, err := s.Stat("long"); !errors.Is(err, ErrCorrupt) || reads["long.json"] != 1 {
		t.Fatalf("Stat of the file changed behind the index: %v, %d whole reads", err, reads["long.json"])
	}
}
