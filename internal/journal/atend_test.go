package journal

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// repairedToTheOldSize writes, as journal id of dir, a stray line then
// three records, the stray line as long as the third record's line, so
// that Repair, leaving the stray line out, makes the journal exactly as
// long as the old position after the second record, which it returns. Lines are sealed with key unless it is the zero Key.
func repairedToTheOldSize(t *testing.T, dir, id string, key seal.Key) Pos {
	t.Helper()
	var lines [][]byte
	h := threeMessages()
	for i, hash := range HashHistory(h) {
		r := Record{Type: TypeMessage, Seq: int64(i + 1), At: time.Date(2026, 11, 30, 8, 0, i, 0, time.UTC),
			Hash: hash, Message: &h[i]}
		line, err := EncodeRecord(&r)
		if err != nil {
			t.Fatal(err)
		}
		if !key.IsZero() {
			if line, err = seal.SealLine(key, LineName(id), bytes.TrimSuffix(line, []byte("\n"))); err != nil {
				t.Fatal(err)
			}
			line = append(line, '\n')
		}
		lines = append(lines, line)
	}
	stray := append(bytes.Repeat([]byte("x"), len(lines[2])-1), '\n')
	data := bytes.Join(append([][]byte{stray}, lines...), nil)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(dir, id), data, 0o600); err != nil {
		t.Fatal(err)
	}
	pos := Pos{Seq: 2, Offset: int64(len(stray) + len(lines[0]) + len(lines[1])), Line: 4}
	if rep, err := Repair(Path(dir, id), key); err != nil || rep.Broken == "" {
		t.Fatalf("repair: %+v %v", rep, err)
	}
	if st, err := os.Stat(Path(dir, id)); err != nil || st.Size() != pos.Offset {
		t.Fatalf("the repaired journal is not as long as the old position: %v %v, want %d", st.Size(), err, pos.Offset)
	}
	return pos
}

func threeMessages() []message.Message {
	return []message.Message{msg("user", "message 1"), msg("assistant", "message 2"), msg("user", "message 3")}
}

// A journal repaired to exactly the length of a position taken before the
// repair still holds a record after it: a read from that position finds
// no record at the old offset, and reads from the top instead of taking
// the end of the file for the end of the records.
func TestReadAfterAnOldPositionAtTheEndOfARepairedJournal(t *testing.T) {
	for _, key := range []seal.Key{noKey, testKey(t, 7)} {
		dir, id := t.TempDir(), NewID()
		pos := repairedToTheOldSize(t, dir, id, key)
		recs, end, _, err := ReadAfter(Path(dir, id), key, pos)
		if err != nil || len(recs) != 1 || recs[0].Seq != 3 || end.Seq != 3 || end.Offset != pos.Offset {
			t.Fatalf("sealed %v: read %d records (%v), end %+v, want record 3", !key.IsZero(), len(recs), err, end)
		}
		placed, err := Place(Path(dir, id), key, pos)
		if err != nil || placed.Offset >= pos.Offset || placed.Line != 3 {
			t.Fatalf("sealed %v: placed %+v (%v)", !key.IsZero(), placed, err)
		}
		// The position the journal has now at its end is taken as it is.
		recs, end, _, err = ReadAfter(Path(dir, id), key, end)
		if err != nil || len(recs) != 0 || end.Seq != 3 || end.Offset != pos.Offset {
			t.Fatalf("sealed %v: at the end: %d records (%v), end %+v", !key.IsZero(), len(recs), err, end)
		}
	}
}

// A handle opened at a position taken before such a repair (OpenAt: a
// session file's journal_pos) reads the journal from the top, so it
// knows the third record and appends nothing numbered 3 again.
func TestOpenAtAnOldPositionAtTheEndOfARepairedJournal(t *testing.T) {
	for _, key := range []seal.Key{noKey, testKey(t, 7)} {
		dir, id := t.TempDir(), NewID()
		pos := repairedToTheOldSize(t, dir, id, key)
		h := threeMessages()
		j, err := OpenAt(dir, id, key, pos, HashHistory(h[:2]), nil)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := j.Sync(h, ReasonSync); err != nil || n != 0 || j.Pos().Seq != 3 {
			t.Fatalf("sealed %v: appended %d records (%v), at %+v; want none, at record 3", !key.IsZero(), n, err, j.Pos())
		}
	}
}
