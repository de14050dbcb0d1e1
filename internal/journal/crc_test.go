package journal

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// oldLine is the record of message m, first of its history, as written
// before records carried a checksum.
func oldLine(m message.Message) string {
	return fmt.Sprintf(`{"type":"message","at":"2026-11-30T08:00:00Z","hash":"%s","message":{"role":"%s","content":"%s"}}`,
		HashHistory([]message.Message{m})[0], m.Role, m.Content)
}

// replaceIn returns line with the byte at offset i (counted from the start
// of the first occurrence of within) replaced by c.
func replaceIn(t *testing.T, line []byte, within string, i int, c func(byte) byte) []byte {
	t.Helper()
	at := bytes.Index(line, []byte(within))
	if at < 0 {
		t.Fatalf("%q not in %s", within, line)
	}
	out := bytes.Clone(line)
	out[at+i] = c(out[at+i])
	if bytes.Equal(out, line) {
		t.Fatal("nothing changed")
	}
	return out
}

// otherHex is another lowercase hex digit.
func otherHex(c byte) byte {
	if c == '0' {
		return '1'
	}
	return '0'
}

// TestChecksumCatchesBitRot: a record line damaged by bit rot in its
// content, its hash or its checksum is skipped with a warning naming the
// file and line; the records around it are read.
func TestChecksumCatchesBitRot(t *testing.T) {
	for _, c := range []struct {
		name, reason string
		rot          func(t *testing.T, line []byte) []byte
	}{
		{"content", "checksum mismatch", func(t *testing.T, l []byte) []byte {
			return replaceIn(t, l, `"content":"answer"`, 12, func(b byte) byte { return b ^ 0x01 }) // "answer" -> "anrwer"
		}},
		{"hash", "checksum mismatch", func(t *testing.T, l []byte) []byte {
			return replaceIn(t, l, `"hash":"`, 8+5, otherHex)
		}},
		{"crc digit", "checksum mismatch", func(t *testing.T, l []byte) []byte {
			return replaceIn(t, l, `"crc":"`, 7+3, otherHex)
		}},
		{"crc digit not hex", "not 8 lowercase hex digits", func(t *testing.T, l []byte) []byte {
			return replaceIn(t, l, `"crc":"`, 7, func(b byte) byte { return 'g' })
		}},
		{"crc key", "not the record's last member", func(t *testing.T, l []byte) []byte {
			return replaceIn(t, l, `"crc":"`, 1, func(b byte) byte { return b &^ 0x20 }) // "Crc", the same member to encoding/json
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, id := t.TempDir(), NewID()
			sync1(t, open(t, dir, id), history(2), 4)
			p := Path(dir, id)
			lines := bytes.SplitAfter(readFile(t, p), []byte("\n"))
			lines[1] = append(c.rot(t, bytes.TrimSuffix(lines[1], []byte("\n"))), '\n')
			os.WriteFile(p, bytes.Join(lines, nil), 0o600)
			recs, res, err := ReadAll(p, noKey)
			if err != nil || len(recs) != 3 || len(res.Warnings) != 1 {
				t.Fatalf("%d records, %v, %v", len(recs), res.Warnings, err)
			}
			w := res.Warnings[0]
			if w.Line != 2 || !strings.Contains(w.Reason.String(), c.reason) || !strings.HasPrefix(w.String(), p+":2: skipped a damaged line (") {
				t.Fatalf("warning %q", w)
			}
			if recs[0].Message.Content != marker+" question a" || recs[1].Message.Content != marker+" question b" {
				t.Fatalf("records around the damaged line: %+v", recs)
			}
		})
	}
}

// TestChecksumOfEveryLineWritten: every record line Sync writes ends with
// the checksum member, and its CRC-32C is that of the line without it.
func TestChecksumOfEveryLineWritten(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	sync1(t, j, history(2), 4)
	sync1(t, j, history(1), 1) // a rewrite record
	for _, l := range bytes.SplitAfter(readFile(t, j.Path()), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		body, member, ok := bytes.Cut(l, []byte(`,"crc":"`))
		if !ok || len(member) != 8+3 || !bytes.HasSuffix(member, []byte("\"}\n")) {
			t.Fatalf("no checksum member at the end of %s", l)
		}
		if want := fmt.Sprintf("%08x", recordCRC(append(body, '}'))); string(member[:8]) != want {
			t.Fatalf("crc %s, want %s", member[:8], want)
		}
	}
}

// TestOldLinesWithoutChecksum: a journal written before records carried a
// checksum is read without warnings, and appending to it adds checksummed
// records after the old ones.
func TestOldLinesWithoutChecksum(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	p := Path(dir, id)
	h := []message.Message{msg("user", "from an older chatcli"), msg("assistant", "new")}
	os.WriteFile(p, []byte(oldLine(h[0])+"\n"), 0o600)
	j := open(t, dir, id) // fails on a warning
	sync1(t, j, h, 1)     // the old record is the history's first message
	recs, res, err := ReadAll(p, noKey)
	if err != nil || len(res.Warnings) != 0 || len(recs) != 2 || recs[0].Message.Content != "from an older chatcli" {
		t.Fatalf("%d records, %v, %v", len(recs), res.Warnings, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(readFile(t, p)), "\n"), "\n")
	if lines[0] != oldLine(h[0]) || !strings.Contains(lines[1], `"crc":"`) {
		t.Fatalf("file:\n%s", strings.Join(lines, "\n"))
	}
}

// TestEveryBitFlipIsCaughtOrHarmless flips each bit of a record line in
// turn: the line is then refused, or decodes to the very same record (a
// flip in the member name "crc" leaves an unknown member beside a record
// that is intact).
func TestEveryBitFlipIsCaughtOrHarmless(t *testing.T) {
	h := []message.Message{{Role: "assistant", Content: "ok ünï", ToolCalls: []message.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.go"}`}}}}
	want := Record{Type: TypeMessage, Hash: HashHistory(h)[0], Message: &h[0]}
	line, err := EncodeRecord(&want)
	if err != nil {
		t.Fatal(err)
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	want, err = DecodeRecord(line) // as read back
	if err != nil {
		t.Fatal(err)
	}
	unchecked := 0
	for i := range line {
		for bit := range 8 {
			l := bytes.Clone(line)
			l[i] ^= 1 << bit
			got, err := DecodeRecord(l)
			if err != nil {
				continue
			}
			if !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
				t.Fatalf("byte %d bit %d: accepted a changed record:\n%s", i, bit, l)
			}
			unchecked++
		}
	}
	if unchecked > 3*8 { // at most the three letters of "crc"
		t.Fatalf("%d flips read unchecked", unchecked)
	}
}

// TestSealedLineWithBadChecksum: the checksum inside a sealed line is
// checked too (a line sealed from a bad plaintext is damaged).
func TestSealedLineWithBadChecksum(t *testing.T) {
	k := testKey(t, 1)
	dir, id, data := sealedJournal(t, k)
	rec := Record{Type: TypeMessage, Hash: strings.Repeat("ab", 16), Message: &message.Message{Role: "user", Content: "x"}}
	pt, _ := EncodeRecord(&rec)
	pt = bytes.Replace(bytes.TrimSuffix(pt, []byte("\n")), []byte(`"x"`), []byte(`"y"`), 1)
	bad, err := seal.SealLine(k, LineName(id), pt)
	if err != nil {
		t.Fatal(err)
	}
	p := Path(dir, id)
	os.WriteFile(p, append(append(data, bad...), '\n'), 0o600)
	recs, res, err := ReadAll(p, k)
	if err != nil || len(recs) != 4 || len(res.Warnings) != 1 || res.Warnings[0].Line != 5 || !strings.Contains(res.Warnings[0].Reason.String(), "checksum mismatch") {
		t.Fatalf("%d records, %v, %v", len(recs), res.Warnings, err)
	}
}
