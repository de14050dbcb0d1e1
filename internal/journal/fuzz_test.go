package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var fuzzSeeds = []string{
	`{"type":"message","at":"2026-11-30T08:00:00Z","hash":"0123456789abcdef0123456789abcdef","message":{"role":"user","content":"hi"}}`,
	`{"type":"rewrite","at":"2026-11-30T08:00:00Z","reason":"compact","hashes":["0123456789abcdef0123456789abcdef"]}`,
	`{"type":"message","hash":"0123456789abcdef0123456789abcdef","message":{"role":"assistant","content":"","tool_calls":[{"id":"a","name":"f","arguments":"{}"}],"x":1}}`,
	`{"type":"message","at":"2026-11-30T08:00:00Z","hash":"0123456789abcdef0123456789abcdef","message":{"role":"user","content":"hi"},"checkpoint":{"prompt":"hi","messages":0},"kept":3}`,
	`{"role":"user","cont`,
	"\x00\x00\x00",
}

// FuzzRecordCodec: DecodeRecord never panics, and a record it accepts
// re-encodes to a line that decodes to the same record and re-encodes to
// the same bytes.
func FuzzRecordCodec(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r1, err := DecodeRecord(line)
		if err != nil {
			return
		}
		b1, err := EncodeRecord(&r1)
		if err != nil {
			t.Fatalf("accepted record does not encode: %v", err)
		}
		r2, err := DecodeRecord(bytes.TrimSuffix(b1, []byte("\n")))
		if err != nil {
			t.Fatalf("re-encoded record rejected: %v\n%s", err, b1)
		}
		if !cmp.Equal(r1, r2, cmpopts.EquateEmpty()) {
			t.Fatalf("round trip changed the record:\n%s", cmp.Diff(r1, r2, cmpopts.EquateEmpty()))
		}
		b2, _ := EncodeRecord(&r2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("encoding is not a fixpoint:\n%s\n%s", b1, b2)
		}
	})
}

// FuzzReader: any file content is read without panic or error, every record
// accepted re-encodes to itself, and lines are accounted for. The journal
// is read from memory (readAllOf) and the seeds are one or two lines: the
// fuzzer minimizes each new input it keeps, at a cost that grows with the
// square of its length, and counts none of those executions.
func FuzzReader(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s + "\n"))
	}
	f.Add([]byte(fuzzSeeds[1] + "\n" + fuzzSeeds[3]))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, res, err := readAllOf(data)
		if err != nil {
			t.Fatalf("reader failed: %v", err)
		}
		if res.Records != len(recs) || res.Records+len(res.Warnings) < res.Lines {
			t.Fatalf("lines unaccounted: %+v, %d records", res, len(recs))
		}
		for _, r := range recs {
			// The encoding is a fixpoint: cheaper than a deep comparison
			// of the records, which FuzzRecordCodec makes for every line
			// DecodeRecord accepts.
			b, err := EncodeRecord(&r)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := DecodeRecord(bytes.TrimSuffix(b, []byte("\n")))
			if err != nil {
				t.Fatalf("accepted record does not decode once encoded: %v\n%s", err, b)
			}
			if b2, err := EncodeRecord(&r2); err != nil || !bytes.Equal(b, b2) || r2.Type != r.Type || r2.Seq != r.Seq || r2.Hash != r.Hash {
				t.Fatalf("accepted record does not re-encode to itself: %v\n%s\n%s", err, b, b2)
			}
		}
	})
}

// readAllOf is ReadAll of a journal holding data, read from memory: a fuzz
// target that writes a file per input spends its time in the file system,
// whose varying coverage makes every input look new, so the fuzzer spends
// its run minimizing and counts almost no executions.
func readAllOf(data []byte) ([]Record, ScanResult, error) {
	const path = "mem/" + fuzzJournalID + fileExt
	o := &lineOpener{key: noKey, path: path, name: LineName(fuzzJournalID)}
	var recs []Record
	res, err := scanStream(bytes.NewReader(data), path, top, o, func(r Record) error {
		recs = append(recs, r)
		return nil
	}, ScanResult{Seq: top.Seq})
	if err == nil {
		err = o.verdict()
	}
	return recs, res, err
}

// fuzzJournalID names the journal readAllOf reads.
const fuzzJournalID = "fuzz"

// The in-memory read of the fuzz target is ReadAll of a file with the same
// bytes, on every seed and every input kept in testdata/fuzz.
func TestReadAllOfIsReadAllOfAFile(t *testing.T) {
	inputs := [][]byte{nil, []byte("\n"), []byte("{\"seq\":1}")}
	for _, s := range fuzzSeeds {
		inputs = append(inputs, []byte(s), []byte(s+"\n"+s))
	}
	kept, _ := filepath.Glob("testdata/fuzz/FuzzReader/*")
	for _, p := range kept {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := corpusBytes(data); ok {
			inputs = append(inputs, v)
		}
	}
	for i, data := range inputs {
		p := filepath.Join(t.TempDir(), fuzzJournalID+fileExt)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fr, fres, ferr := ReadAll(p, noKey)
		mr, mres, merr := readAllOf(data)
		fres.file = nil
		for j := range min(len(fres.Warnings), len(mres.Warnings)) {
			fres.Warnings[j].Path = mres.Warnings[j].Path
		}
		if (ferr == nil) != (merr == nil) || !cmp.Equal(fr, mr, cmpopts.EquateEmpty()) || !cmp.Equal(fres, mres, cmp.AllowUnexported(ScanResult{}), cmpopts.EquateEmpty(), sameText) {
			t.Errorf("input %d: file %v %+v %v; memory %v %+v %v", i, fr, fres, ferr, mr, mres, merr)
		}
	}
}

// corpusBytes returns the []byte value of a "go test fuzz v1" file.
func corpusBytes(data []byte) ([]byte, bool) {
	lines := strings.SplitN(string(data), "\n", 3)
	if len(lines) < 2 || lines[0] != "go test fuzz v1" {
		return nil, false
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(lines[1]), "[]byte(")
	if !ok {
		return nil, false
	}
	q, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
	return []byte(q), err == nil
}

// sameText compares reasons by their English text.
var sameText = cmp.Comparer(func(a, b i18n.Text) bool { return a.String() == b.String() })
