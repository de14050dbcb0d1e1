package journal

import (
	"errors"
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// forgedLine looks like a sealed line and opens under no key.
const forgedLine = "chatcli-sealed:v1:Zm9yZ2VkIGxpbmU\n"

// One forged sealed line in a plaintext journal is a damaged line: read
// with or without a key it is skipped with a warning and counted, the
// journal goes on taking plaintext appends, and it forks; it is no proof
// that the journal is sealed.
func TestAForgedSealedLineInAPlaintextJournalIsADamagedLine(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	sync1(t, open(t, dir, id), history(1), 2)
	p := Path(dir, id)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(forgedLine)
	f.Close()
	for name, key := range map[string]seal.Key{"no key": noKey, "a key": testKey(t, 1)} {
		recs, res, err := ReadAll(p, key)
		if err != nil || len(recs) != 2 || len(res.Warnings) != 1 || res.Warnings[0].Line != 3 {
			t.Errorf("ReadAll with %s: %d records, warnings %v, %v; want 2 records and line 3 skipped", name, len(recs), res.Warnings, err)
		}
		if _, w, err := Fork(dir, id, key); err != nil || len(w) != 1 {
			t.Errorf("Fork with %s: warnings %v, %v; want the forged line left out", name, w, err)
		}
	}
	j, w, err := Open(dir, id, noKey)
	if err != nil || len(w) != 1 {
		t.Fatalf("Open: warnings %v, %v; want the forged line named", w, err)
	}
	sync1(t, j, history(2), 2)
	if recs, res, err := ReadAll(p, noKey); err != nil || len(recs) != 4 || len(res.Warnings) != 1 {
		t.Errorf("after an append: %d records, %v, %v; want 4 and the forged line", len(recs), res.Warnings, err)
	}
}

// A journal whose every line is sealed still needs the key.
func TestASealedJournalStillNeedsItsKey(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j, _, err := Open(dir, id, testKey(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	sync1(t, j, history(1), 2)
	if _, _, err := ReadAll(Path(dir, id), noKey); !errors.Is(err, ErrEncrypted) {
		t.Errorf("ReadAll without the key: %v, want ErrEncrypted", err)
	}
	if _, _, err := Fork(dir, id, noKey); !errors.Is(err, ErrEncrypted) {
		t.Errorf("Fork without the key: %v, want ErrEncrypted", err)
	}
	if _, _, err := Open(dir, id, noKey); !errors.Is(err, ErrEncrypted) {
		t.Errorf("Open without the key: %v, want ErrEncrypted", err)
	}
}

// In a sealed journal, a damaged line that is the only one after the
// position a read starts from is a damaged line, as it is to a read from
// the top: the key opens the journal's first line. A key that does not
// still fails the read.
func TestADamagedLineAloneAfterThePositionOfASealedJournal(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	key := testKey(t, 1)
	j, _, err := Open(dir, id, key)
	if err != nil {
		t.Fatal(err)
	}
	sync1(t, j, history(1), 2)
	p := Path(dir, id)
	_, pos, _, err := ReadAfter(p, key, top)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(forgedLine)
	f.Close()
	recs, _, w, err := ReadAfter(p, key, pos)
	if err != nil || len(recs) != 0 || len(w) != 1 {
		t.Errorf("ReadAfter: %d records, warnings %v, %v; want the damaged line skipped", len(recs), w, err)
	}
	if _, _, _, err := ReadAfter(p, testKey(t, 2), pos); !errors.Is(err, seal.ErrWrongKey) {
		t.Errorf("ReadAfter with another key: %v, want seal.ErrWrongKey", err)
	}
}
