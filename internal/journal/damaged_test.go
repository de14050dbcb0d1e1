package journal

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// damage returns ways to damage the sealed journal data of four lines,
// with the 1-based number of the line left damaged.
var damages = []struct {
	name string
	line int
	fn   func([]byte) []byte
}{
	{"flipped byte", 2, func(d []byte) []byte {
		d = bytes.Clone(d)
		d[bytes.IndexByte(d, '\n')+40] ^= 0x01 // inside the second line
		return d
	}},
	{"torn last line", 5, func(d []byte) []byte {
		first, _, _ := bytes.Cut(d, []byte("\n"))
		return append(bytes.Clone(d), first[:len(first)/2]...) // a crash mid-append
	}},
}

// sealedJournal writes a journal of four sealed lines under k and returns
// its folder, id and data.
func sealedJournal(t *testing.T, k seal.Key) (string, string, []byte) {
	t.Helper()
	dir, id := t.TempDir(), NewID()
	j, _, err := Open(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j.Sync(history(2), ReasonSync); err != nil || n != 4 {
		t.Fatal(n, err)
	}
	return dir, id, readFile(t, j.Path())
}

// TestForkLeavesOutDamagedSealedLines: a sealed line that does not open
// among lines that do is left out of the copy with a warning; a key that
// opens none still fails.
func TestForkLeavesOutDamagedSealedLines(t *testing.T) {
	k := testKey(t, 1)
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir, id, data := sealedJournal(t, k)
			p := Path(dir, id)
			os.WriteFile(p, d.fn(data), 0o600)
			before := readFile(t, p)
			fid, w, err := Fork(dir, id, k)
			if err != nil || len(w) != 1 || w[0].Line != d.line || !strings.Contains(w[0].String(), p+":") {
				t.Fatalf("fork: %v %v", w, err)
			}
			sealedLines(t, Path(dir, fid))
			wantMsgs := map[int]int{2: 3, 5: 4}[d.line]
			if msgs, _, fw, err := Messages(Path(dir, fid), k); err != nil || len(fw) != 0 || len(msgs) != wantMsgs {
				t.Fatalf("fork holds %d messages, %v %v", len(msgs), fw, err)
			}
			if _, _, err := Fork(dir, id, testKey(t, 2)); !errors.Is(err, seal.ErrWrongKey) {
				t.Fatalf("fork with the wrong key: %v", err)
			}
			if !bytes.Equal(before, readFile(t, p)) {
				t.Fatal("the source changed")
			}
		})
	}
}

// TestRekeyKeepsDamagedSealedLines: a sealed line that opens with neither
// key among lines that do is kept as it is and counted; a file no line of
// which opens still fails, unchanged.
func TestRekeyKeepsDamagedSealedLines(t *testing.T) {
	k1, k2 := testKey(t, 1), testKey(t, 2)
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir, id, data := sealedJournal(t, k1)
			p := Path(dir, id)
			damaged := d.fn(data)
			os.WriteFile(p, damaged, 0o600)
			if _, _, err := Rekey(p, testKey(t, 3), k2); !errors.Is(err, seal.ErrWrongKey) {
				t.Fatalf("neither key: %v", err)
			}
			if !bytes.Equal(damaged, readFile(t, p)) {
				t.Fatal("changed by a failed rekey")
			}
			changed, kept, err := Rekey(p, k1, k2)
			if err != nil || !changed || len(kept) != 1 || kept[0].Line != d.line {
				t.Fatalf("rekey: %v %v %v", changed, kept, err)
			}
			lines := bytes.Split(bytes.TrimSuffix(readFile(t, p), []byte("\n")), []byte("\n"))
			if bad := bytes.Split(damaged, []byte("\n"))[d.line-1]; len(lines) < d.line || !bytes.Equal(lines[d.line-1], bad) {
				t.Fatal("the damaged line was not kept verbatim")
			}
			wantMsgs := map[int]int{2: 3, 5: 4}[d.line]
			if msgs, _, w, err := Messages(p, k2); err != nil || len(w) != 1 || len(msgs) != wantMsgs {
				t.Fatalf("after rekey: %d messages, %v %v", len(msgs), w, err)
			}
			// Again: nothing to re-seal, the damaged line still counted.
			if changed, kept, err := Rekey(p, k1, k2); err != nil || changed || len(kept) != 1 {
				t.Fatalf("again: %v %v %v", changed, kept, err)
			}
		})
	}
}

// TestMigrationKeepsDamagedSealedLines: a keyed append to a journal
// holding plaintext lines, a sealed line and a torn sealed line seals the
// plaintext and keeps the torn line.
func TestMigrationKeepsDamagedSealedLines(t *testing.T) {
	k := testKey(t, 1)
	dir, id := t.TempDir(), NewID()
	sync1(t, open(t, dir, id), history(1), 2)
	js, _, err := Open(t.TempDir(), id, k) // sealed lines of the same id
	if err != nil {
		t.Fatal(err)
	}
	if n, err := js.Sync(history(2), ReasonSync); err != nil || n != 4 {
		t.Fatal(n, err)
	}
	sealed := bytes.Split(readFile(t, js.Path()), []byte("\n"))
	f, err := os.OpenFile(Path(dir, id), os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(append(sealed[2], '\n'), sealed[3][:len(sealed[3])/2]...)) // a crash mid-append
	f.Close()
	j, _, err := Open(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j.Sync(history(3), ReasonSync); err != nil || n != 3 {
		t.Fatalf("keyed append: %d %v", n, err)
	}
	data := readFile(t, j.Path())
	if bytes.Contains(data, []byte(marker)) {
		t.Fatal("plaintext left")
	}
	recs, res, err := ReadAll(j.Path(), k)
	if err != nil || len(recs) != 6 || len(res.Warnings) != 1 || res.Warnings[0].Line != 4 || res.Sealed != 7 {
		t.Fatalf("%d records %+v %v", len(recs), res, err)
	}
}
