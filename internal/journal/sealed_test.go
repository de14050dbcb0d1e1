package journal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

var noKey seal.Key

const marker = "zebrafinch"

func testKey(t testing.TB, b byte) seal.Key {
	t.Helper()
	k, err := seal.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func history(n int) []message.Message {
	var h []message.Message
	for i := range n {
		h = append(h, msg("user", marker+" question "+string(rune('a'+i))), msg("assistant", "answer"))
	}
	return h
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sealedLines checks that every line of the file is sealed.
func sealedLines(t *testing.T, p string) {
	t.Helper()
	data := readFile(t, p)
	if bytes.Contains(data, []byte(marker)) {
		t.Fatalf("%s holds plaintext", p)
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if !seal.IsSealedLine(l) {
			t.Fatalf("plaintext line %q", l)
		}
	}
}

func TestSealedJournal(t *testing.T) {
	dir, id, k := t.TempDir(), NewID(), testKey(t, 1)
	j, _, err := Open(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j.Sync(history(2), ReasonSync); err != nil || n != 4 {
		t.Fatal(n, err)
	}
	if n, err := j.Sync(history(3), ReasonSync); err != nil || n != 2 {
		t.Fatal(n, err)
	}
	p := j.Path()
	sealedLines(t, p)
	msgs, _, w, err := Messages(p, k)
	if err != nil || len(w) != 0 || len(msgs) != 6 || msgs[4].Content != marker+" question c" {
		t.Fatalf("%v %v %v", msgs, w, err)
	}
	// Reopened, the view is rebuilt: nothing is appended twice.
	j2, _, err := Open(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j2.Sync(history(3), ReasonSync); err != nil || n != 0 {
		t.Fatal(n, err)
	}
	before := readFile(t, p)
	// Without the key: refused, and nothing is appended.
	if _, _, err := Open(dir, id, noKey); !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), "is encrypted; set CHATCLI_ENCRYPTION_KEY") {
		t.Fatalf("no key: %v", err)
	}
	if _, _, _, err := Messages(p, noKey); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("no key: %v", err)
	}
	// With another key: wrong key, nothing appended.
	const hint = "it was not changed (it opens only with the key that sealed it)"
	if _, _, err := Open(dir, id, testKey(t, 2)); !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(err.Error(), hint) {
		t.Fatalf("wrong key: %v", err)
	}
	if _, _, err := Fork(dir, id, testKey(t, 2)); !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(err.Error(), hint) {
		t.Fatalf("fork with the wrong key: %v", err)
	}
	if _, _, err := Fork(dir, id, noKey); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("fork without key: %v", err)
	}
	if !bytes.Equal(before, readFile(t, p)) {
		t.Fatal("the journal changed")
	}
	// A fork is sealed for its own id; the source's lines do not open
	// under the fork's name.
	fid, _, err := Fork(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	sealedLines(t, Path(dir, fid))
	if fm, _, _, err := Messages(Path(dir, fid), k); err != nil || len(fm) != 6 {
		t.Fatalf("fork: %d %v", len(fm), err)
	}
	if err := os.WriteFile(Path(dir, fid), before, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := Messages(Path(dir, fid), k); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("lines of another journal: %v", err)
	}
}

// TestSealedJournalDamagedLine: one line flipped among good ones is a
// skipped line with a warning, not a wrong key.
func TestSealedJournalDamagedLine(t *testing.T) {
	dir, id, k := t.TempDir(), NewID(), testKey(t, 1)
	j, _, _ := Open(dir, id, k)
	if _, err := j.Sync(history(2), ReasonSync); err != nil {
		t.Fatal(err)
	}
	data := readFile(t, j.Path())
	i := bytes.IndexByte(data, '\n') + 40 // inside the second line
	data[i] ^= 0x01
	os.WriteFile(j.Path(), data, 0o600)
	msgs, _, w, err := Messages(j.Path(), k)
	if err != nil || len(w) != 1 || len(msgs) != 3 {
		t.Fatalf("%d messages, %v, %v", len(msgs), w, err)
	}
}

// TestJournalMigration: a plaintext journal appended to with a key is
// rewritten sealed first, in one replacement, and keeps its records.
func TestJournalMigration(t *testing.T) {
	dir, id, k := t.TempDir(), NewID(), testKey(t, 1)
	j := open(t, dir, id)
	sync1(t, j, history(2), 4)
	// Without a key the plaintext lines read.
	j2, _, err := Open(dir, id, k)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := j2.Sync(history(3), ReasonSync); err != nil || n != 2 {
		t.Fatal(n, err)
	}
	sealedLines(t, j.Path())
	recs, res, err := ReadAll(j.Path(), k)
	if err != nil || len(recs) != 6 || len(res.Warnings) != 0 || res.Sealed != 6 {
		t.Fatalf("%d %+v %v", len(recs), res, err)
	}
	// The first handle, keyless, refuses to append in plaintext now.
	if _, err := j.Sync(history(4), ReasonSync); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("keyless append to a sealed journal: %v", err)
	}
	sealedLines(t, j.Path())
}

func TestJournalRekey(t *testing.T) {
	dir, id, k1, k2 := t.TempDir(), NewID(), testKey(t, 1), testKey(t, 2)
	j := open(t, dir, id)
	sync1(t, j, history(1), 2)
	p := j.Path()
	if changed, _, err := Rekey(p, noKey, k1); err != nil || !changed {
		t.Fatal(changed, err)
	}
	sealedLines(t, p)
	if changed, _, err := Rekey(p, noKey, k1); err != nil || changed {
		t.Fatal("again:", changed, err)
	}
	before := readFile(t, p)
	if _, _, err := Rekey(p, testKey(t, 3), k2); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("neither key: %v", err)
	}
	if !bytes.Equal(before, readFile(t, p)) {
		t.Fatal("changed by a failed rekey")
	}
	if changed, _, err := Rekey(p, k1, k2); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if msgs, _, _, err := Messages(p, k2); err != nil || len(msgs) != 2 {
		t.Fatal(msgs, err)
	}
	if changed, _, err := Rekey(Path(dir, NewID()), k1, k2); err != nil || changed {
		t.Fatal("missing file:", changed, err)
	}
}
