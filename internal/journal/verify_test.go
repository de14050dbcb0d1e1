package journal

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
)

// plainJournal writes a journal of four plaintext records (two questions
// and their answers) and returns its path and lines (each with its "\n").
func plainJournal(t *testing.T) (string, [][]byte) {
	t.Helper()
	dir, id := t.TempDir(), NewID()
	sync1(t, open(t, dir, id), history(2), 4)
	p := Path(dir, id)
	return p, bytes.SplitAfter(readFile(t, p), []byte("\n"))[:4]
}

// plainDamages damage the four lines of plainJournal (fn gets a copy);
// damaged are the lines Verify must name, and keep returns the lines of
// the original four a repair must leave, byte for byte.
var plainDamages = []struct {
	name    string
	fn      func(t *testing.T, lines [][]byte) []byte
	damaged []int // 1-based line numbers of the warnings
	keep    func(lines [][]byte) [][]byte
}{
	{"bit rot in a content", func(t *testing.T, l [][]byte) []byte {
		l[1] = replaceIn(t, l[1], `"content":"answer"`, 12, func(b byte) byte { return b ^ 0x01 })
		return bytes.Join(l, nil)
	}, []int{2}, func(l [][]byte) [][]byte { return [][]byte{l[0], l[2], l[3]} }},
	{"torn last line", func(t *testing.T, l [][]byte) []byte {
		return append(bytes.Join(l, nil), l[0][:40]...)
	}, []int{5}, func(l [][]byte) [][]byte { return l }},
	{"NUL block and stray lines", func(t *testing.T, l [][]byte) []byte {
		return bytes.Join([][]byte{l[0], bytes.Repeat([]byte{0}, 300), []byte("\nnot json\n\n"), l[1], []byte(`{"type":"mystery"}` + "\n"), l[2], l[3]}, nil)
	}, []int{2, 3, 4, 6}, func(l [][]byte) [][]byte { return l }},
	{"NUL bytes before a record", func(t *testing.T, l [][]byte) []byte {
		return bytes.Join([][]byte{l[0], bytes.Repeat([]byte{0}, 300), l[1], l[2], l[3]}, nil)
	}, []int{2}, func(l [][]byte) [][]byte { return l }},
	{"a last record without its newline and a damaged one", func(t *testing.T, l [][]byte) []byte {
		l[0] = replaceIn(t, l[0], `"hash":"`, 9, otherHex)
		return bytes.TrimSuffix(bytes.Join(l, nil), []byte("\n"))
	}, []int{1}, func(l [][]byte) [][]byte { return l[1:] }},
}

// TestRepairPlaintext: each kind of damage is found by Verify, set aside
// byte for byte as <path>.broken by Repair, and the journal is rewritten
// with exactly the records that read back, each line byte for byte, so
// that reading it gives no warnings; a second Repair changes nothing.
func TestRepairPlaintext(t *testing.T) {
	for _, d := range plainDamages {
		t.Run(d.name, func(t *testing.T) {
			p, lines := plainJournal(t)
			damaged := d.fn(t, slicesClone(lines))
			os.WriteFile(p, damaged, 0o600)
			wantRecs, _, err := ReadAll(p, noKey)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(p, noKey)
			if err != nil || !sameLines(res.Warnings, d.damaged) || res.Records != len(wantRecs) {
				t.Fatalf("verify: %+v %v", res, err)
			}
			rep, err := Repair(p, noKey)
			if err != nil || rep.Broken != p+".broken" || !sameLines(rep.Damaged, d.damaged) || rep.Records != len(wantRecs) {
				t.Fatalf("repair: %+v %v", rep, err)
			}
			if !bytes.Equal(readFile(t, rep.Broken), damaged) {
				t.Fatal(".broken does not hold the journal as it was")
			}
			fixed := bytes.Join(d.keep(lines), nil)
			if got := readFile(t, p); !bytes.Equal(got, fixed) {
				t.Fatalf("rewritten journal:\n%s", got)
			}
			recs, res, err := ReadAll(p, noKey)
			if err != nil || len(res.Warnings) != 0 || !cmp.Equal(recs, wantRecs, cmpopts.EquateEmpty()) {
				t.Fatalf("after repair: %v %v", res.Warnings, err)
			}
			if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v", st.Mode())
			}
			again, err := Repair(p, noKey)
			if err != nil || again.Broken != "" || len(again.Damaged) != 0 || !bytes.Equal(readFile(t, p), fixed) {
				t.Fatalf("a sound journal was changed: %+v %v", again, err)
			}
		})
	}
}

func slicesClone(l [][]byte) [][]byte {
	out := make([][]byte, len(l))
	for i := range l {
		out[i] = bytes.Clone(l[i])
	}
	return out
}

// sameLines reports whether the warnings name exactly these lines.
func sameLines(w []Warning, lines []int) bool {
	if len(w) != len(lines) {
		return false
	}
	for i := range w {
		if w[i].Line != lines[i] {
			return false
		}
	}
	return true
}

// TestRepairKeepsEveryBrokenCopy: an existing .broken (and .broken-1) is
// never replaced; the next copy is .broken-2.
func TestRepairKeepsEveryBrokenCopy(t *testing.T) {
	p, lines := plainJournal(t)
	os.WriteFile(p+".broken", []byte("first"), 0o600)
	os.WriteFile(p+".broken-1", []byte("second"), 0o600)
	damaged := append(bytes.Join(lines, nil), "torn"...)
	os.WriteFile(p, damaged, 0o600)
	rep, err := Repair(p, noKey)
	if err != nil || rep.Broken != p+".broken-2" {
		t.Fatalf("%+v %v", rep, err)
	}
	if string(readFile(t, p+".broken")) != "first" || string(readFile(t, p+".broken-1")) != "second" || !bytes.Equal(readFile(t, rep.Broken), damaged) {
		t.Fatal("an earlier copy changed")
	}
}

// TestVerifyAndRepairSoundOrMissing: a sound journal gives no warnings and
// is left as it is; a missing one is not created.
func TestVerifyAndRepairSoundOrMissing(t *testing.T) {
	p, lines := plainJournal(t)
	if res, err := Verify(p, noKey); err != nil || len(res.Warnings) != 0 || res.Records != 4 || res.Lines != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	if rep, err := Repair(p, noKey); err != nil || rep.Broken != "" || rep.Records != 4 || !bytes.Equal(readFile(t, p), bytes.Join(lines, nil)) {
		t.Fatalf("%+v %v", rep, err)
	}
	missing := Path(t.TempDir(), NewID())
	if res, err := Verify(missing, noKey); err != nil || res.Lines != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if rep, err := Repair(missing, noKey); err != nil || rep.Broken != "" {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("verify or repair created the journal")
	}
}

// TestRepairSealed: damaged sealed lines are left out and every other line
// is kept sealed, byte for byte; without the key, or with a key that opens
// none of its lines, nothing is repaired and the file is unchanged.
func TestRepairSealed(t *testing.T) {
	k := testKey(t, 1)
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir, id, data := sealedJournal(t, k)
			p := Path(dir, id)
			damaged := d.fn(data)
			os.WriteFile(p, damaged, 0o600)
			if _, err := Verify(p, noKey); !errors.Is(err, ErrEncrypted) {
				t.Fatalf("verify without a key: %v", err)
			}
			for key, want := range map[string]error{"no key": ErrEncrypted, "wrong key": seal.ErrWrongKey} {
				kk := map[string]seal.Key{"no key": noKey, "wrong key": testKey(t, 2)}[key]
				if rep, err := Repair(p, kk); !errors.Is(err, want) || rep.Broken != "" || !bytes.Equal(readFile(t, p), damaged) {
					t.Fatalf("%s: %+v %v", key, rep, err)
				}
			}
			if _, err := os.Lstat(p + ".broken"); err == nil {
				t.Fatal("a failed repair left a copy")
			}
			res, err := Verify(p, k)
			if err != nil || !sameLines(res.Warnings, []int{d.line}) {
				t.Fatalf("verify: %v %v", res.Warnings, err)
			}
			rep, err := Repair(p, k)
			if err != nil || !bytes.Equal(readFile(t, rep.Broken), damaged) || !sameLines(rep.Damaged, []int{d.line}) {
				t.Fatalf("repair: %+v %v", rep, err)
			}
			sealedLines(t, p)
			orig := bytes.SplitAfter(data, []byte("\n"))
			var want []byte
			for i, l := range orig[:4] {
				if i+1 != d.line {
					want = append(want, l...)
				}
			}
			if !bytes.Equal(readFile(t, p), want) {
				t.Fatal("the lines that open were not kept byte for byte")
			}
			if recs, res, err := ReadAll(p, k); err != nil || len(res.Warnings) != 0 || len(recs) != rep.Records {
				t.Fatalf("after repair: %d records, %v %v", len(recs), res.Warnings, err)
			}
		})
	}
}

// TestRepairUnderAnOpenHandle: a journal repaired while a handle has it
// open is read again by that handle's next Sync (the file was replaced),
// which records the message the damage lost; nothing is read twice.
func TestRepairUnderAnOpenHandle(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	sync1(t, j, history(2), 4)
	p := j.Path()
	lines := bytes.SplitAfter(readFile(t, p), []byte("\n"))
	lines[1] = replaceIn(t, lines[1], `"content":"answer"`, 12, func(b byte) byte { return b ^ 0x01 })
	os.WriteFile(p, bytes.Join(lines, nil), 0o600) // in place, as bit rot is
	if _, err := Repair(p, noKey); err != nil {
		t.Fatal(err)
	}
	h := history(3)
	n, err := j.Sync(h, ReasonSync)
	if err != nil || n != 4 { // the lost answer, the third exchange, a rewrite
		t.Fatalf("sync after repair: %d %v", n, err)
	}
	if got := messagesOf(t, p); len(got) != 6 {
		t.Fatalf("%d messages: %v", len(got), got)
	}
	j2 := open(t, dir, id)
	if n, err := j2.Sync(h, ReasonSync); err != nil || n != 0 {
		t.Fatalf("the repaired journal's view is not the history: %d %v", n, err)
	}
}

// TestRepairFailedRewriteLeavesTheJournal: when the clean journal cannot
// be written (a full disk), the journal is left as it was and the copy
// made before stays, named in the error.
func TestRepairFailedRewriteLeavesTheJournal(t *testing.T) {
	p, lines := plainJournal(t)
	damaged := append(bytes.Join(lines, nil), "torn"...)
	os.WriteFile(p, damaged, 0o600)
	orig, calls := atomicfile.CreateTemp, 0
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		if calls++; calls == 2 {
			return nil, syscall.ENOSPC
		}
		return orig(dir, pattern)
	}
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	rep, err := Repair(p, noKey)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), p+".broken") || rep.Broken != p+".broken" {
		t.Fatalf("%+v %v", rep, err)
	}
	if !bytes.Equal(readFile(t, p), damaged) || !bytes.Equal(readFile(t, rep.Broken), damaged) {
		t.Fatal("the journal or its copy changed")
	}
}
