package journal

import (
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// longHistory is n exchanges with long user messages, so that a sealed
// copy of a journal is much longer than the plaintext, and the end of the
// plaintext lands inside the last sealed line.
func longHistory(n int) []message.Message {
	var h []message.Message
	for i := range n {
		h = append(h, msg("user", marker+" "+strings.Repeat(string(rune('a'+i)), 400)), msg("assistant", "answer"))
	}
	return h
}

// countRecords returns the message and rewrite records of the journal at
// path, failing on any warning.
func countRecords(t *testing.T, path string, k seal.Key) (msgs, rewrites int) {
	t.Helper()
	recs, res, err := ReadAll(path, k)
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("read %s: %v %v", path, res.Warnings, err)
	}
	for _, r := range recs {
		if r.Type == TypeMessage {
			msgs++
		} else {
			rewrites++
		}
	}
	return msgs, rewrites
}

// TestKeylessHandleAfterReplacement: a handle opened without a key on a
// plaintext journal that another process then sealed (rekey, or a keyed
// append migrating it) never appends a plaintext line, however many times
// it tries.
func TestKeylessHandleAfterReplacement(t *testing.T) {
	for _, how := range []string{"rekey", "keyed append"} {
		t.Run(how, func(t *testing.T) {
			dir, id, k := t.TempDir(), NewID(), testKey(t, 1)
			j1 := open(t, dir, id)
			sync1(t, j1, longHistory(1), 2)
			switch how {
			case "rekey":
				if changed, _, err := Rekey(j1.Path(), noKey, k); err != nil || !changed {
					t.Fatal(changed, err)
				}
			case "keyed append":
				j2, _, err := Open(dir, id, k)
				if err != nil {
					t.Fatal(err)
				}
				// A rewind appends one rewrite record, sealing the file first.
				if n, err := j2.Sync(longHistory(1)[:1], ReasonRewind); err != nil || n != 1 {
					t.Fatal(n, err)
				}
			}
			sealedLines(t, j1.Path())
			for i := range 4 {
				if _, err := j1.Sync(longHistory(2+i), ReasonSync); !errors.Is(err, ErrEncrypted) {
					t.Fatalf("keyless append %d to a sealed journal: %v", i, err)
				}
				sealedLines(t, j1.Path())
			}
		})
	}
}

// TestKeyedHandleAfterReplacement: a keyed handle whose journal another
// process replaced (migration or rekey) reads it again from the top: no
// record is written twice, no rewrite record is invented, no line is
// damaged.
func TestKeyedHandleAfterReplacement(t *testing.T) {
	for _, how := range []string{"rekey", "keyed append"} {
		t.Run(how, func(t *testing.T) {
			dir, id, k := t.TempDir(), NewID(), testKey(t, 1)
			sync1(t, open(t, dir, id), longHistory(1), 2)
			j1, w, err := Open(dir, id, k) // holds plaintext lines to seal
			if err != nil || len(w) != 0 {
				t.Fatal(w, err)
			}
			p := j1.Path()
			switch how {
			case "rekey":
				if changed, _, err := Rekey(p, noKey, k); err != nil || !changed {
					t.Fatal(changed, err)
				}
			case "keyed append":
				j2, _, err := Open(dir, id, k)
				if err != nil {
					t.Fatal(err)
				}
				if n, err := j2.Sync(longHistory(2), ReasonSync); err != nil || n != 2 {
					t.Fatal(n, err)
				}
			}
			want := map[string]int{"rekey": 2, "keyed append": 0}[how]
			if n, err := j1.Sync(longHistory(2), ReasonSync); err != nil || n != want {
				t.Fatalf("appended %d (%v), want %d", n, err, want)
			}
			if n, err := j1.Sync(longHistory(3), ReasonSync); err != nil || n != 2 {
				t.Fatalf("appended %d (%v), want 2", n, err)
			}
			sealedLines(t, p)
			if msgs, rewrites := countRecords(t, p, k); msgs != 6 || rewrites != 0 {
				t.Fatalf("%d message records, %d rewrite records; want 6 and 0", msgs, rewrites)
			}
			if _, w, err := Open(dir, id, k); err != nil || len(w) != 0 {
				t.Fatal(w, err)
			}
		})
	}
}
