package conversation

import (
	"errors"
	"strings"
	"testing"
)

func TestSetTitleIsKeptAcrossTurnsAndWindows(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	if err := e.SetTitle("x"); !errors.Is(err, ErrNotBound) {
		t.Fatalf("unbound: %v", err)
	}
	turn(t, e, "first prompt")
	if err := e.Save("proj", false); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"  ", "two\nlines", strings.Repeat("é", MaxTitleChars+1)} {
		if err := e.SetTitle(bad); err == nil {
			t.Fatalf("title %q accepted", bad)
		}
	}
	if err := e.SetTitle("  The parser rewrite "); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "second prompt")
	if _, err := e.Close(false); err != nil {
		t.Fatal(err)
	}
	h, err := f.store.Stat("proj")
	if err != nil || h.Title != "The parser rewrite" || h.Messages != 4 {
		t.Fatalf("after a turn and exit: %+v %v", h, err)
	}
	other := f.engine(nil)
	other.setJournalDir(e.JournalDir())
	if _, err := other.Load("proj"); err != nil {
		t.Fatal(err)
	}
	turn(t, other, "third prompt")
	other.Close(false)
	if h, _ := f.store.Stat("proj"); h.Title != "The parser rewrite" {
		t.Fatalf("another window's turn lost the title: %q", h.Title)
	}
}
