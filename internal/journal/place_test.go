package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

func TestPlaceFindsAPositionInTheLinesAsTheyAreNow(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	var h []message.Message
	var at []Pos // at[i]: after record i+1
	for i := range 5 {
		h = append(h, msg("user", fmt.Sprint("message ", i)))
		sync1(t, j, h, 1)
		at = append(at, j.Pos())
	}
	if p, err := Place(j.Path(), noKey, at[2]); err != nil || p != at[2] {
		t.Fatalf("unmoved lines: placed %+v (%v), want %+v", p, err, at[2])
	}

	key := testKey(t, 3)
	if _, _, err := Rekey(j.Path(), noKey, key); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, seq := range []int{3, 5} {
		want := Pos{Seq: int64(seq), Offset: int64(len(bytes.Join(lines[:seq], nil))), Line: seq + 1}
		if p, err := Place(j.Path(), key, at[seq-1]); err != nil || p != want {
			t.Fatalf("after record %d of the sealed journal: placed %+v (%v), want %+v", seq, p, err, want)
		}
	}
	beyond := Pos{Seq: 9, Offset: 1, Line: 2}
	if p, err := Place(j.Path(), key, beyond); !errors.Is(err, ErrPosLost) || p != beyond {
		t.Fatalf("a position past the journal: placed %+v (%v)", p, err)
	}
	if _, err := Place(j.Path(), testKey(t, 4), at[2]); err == nil {
		t.Fatal("placed with a key that opens no line")
	}
}
