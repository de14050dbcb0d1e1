package index_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/index"
)

// loggedStore returns a store whose index was built, then took one turn
// in its log, with the log's length before that turn and the hits of
// query on the index with the turn.
func loggedStore(t *testing.T, query string) (s *store, logBefore int, want []index.Hit) {
	t.Helper()
	s = newStore(t, "")
	e := s.session("one", "alpha beta gamma", "delta alpha")
	s.session("two", "gamma gamma epsilon")
	s.find(s.index(), query, index.Filter{})
	logBefore = len(readLog(t, s))
	s.turn(e, "alpha again, and a zeta")
	want, _ = s.find(s.index(), query, index.Filter{})
	if len(readLog(t, s)) <= logBefore {
		t.Fatal("the turn was not appended to the log")
	}
	return s, logBefore, want
}

// TestACutAppendLeavesTheIndexAsItWas: an append a crash cut at any byte,
// or followed by garbage, reads as the index before it (the entry is
// not trusted, and nothing is rebuilt); the turn is indexed again from
// its journal, so the hits are those of the whole index.
func TestACutAppendLeavesTheIndexAsItWas(t *testing.T) {
	s, logBefore, want := loggedStore(t, "alpha zeta")
	full := readLog(t, s)
	path := logPath(t, s)
	type variant struct {
		name string
		data []byte
	}
	variants := []variant{
		{"zeros after", append(bytes.Clone(full), make([]byte, 300)...)},
		{"garbage after", append(bytes.Clone(full), bytes.Repeat([]byte("\x93garbage"), 40)...)},
	}
	for cut := logBefore; cut < len(full); cut += max(1, (len(full)-logBefore)/40) {
		variants = append(variants, variant{fmt.Sprintf("cut at byte %d", cut), bytes.Clone(full[:cut])})
	}
	for _, v := range variants {
		if err := os.WriteFile(path, v.data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, warnings := s.find(s.index(), "alpha zeta", index.Filter{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: hits (-want +got):\n%s", v.name, diff)
		}
		if len(warnings) != 0 {
			t.Errorf("%s: warnings %q, want none", v.name, warnings)
		}
		if logPath(t, s) != path {
			t.Fatalf("%s: the log was replaced", v.name)
		}
	}
}

// TestALogEntryThatOpensButDoesNotDecodeIsDamaged: an entry whose frame
// checks but whose content is not an entry is reported and the index
// rebuilt, with the same hits.
func TestALogEntryThatOpensButDoesNotDecodeIsDamaged(t *testing.T) {
	s, logBefore, want := loggedStore(t, "alpha zeta")
	data := readLog(t, s)
	payload := data[logBefore+8:]
	payload[0] ^= 0x7f // the length of the entry's delta
	binary.LittleEndian.PutUint32(data[logBefore+4:], crc32.Checksum(payload, crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(logPath(t, s), data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, warnings := s.find(s.index(), "alpha zeta", index.Filter{})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "log-") || !strings.Contains(warnings[0], "rebuilt") {
		t.Errorf("warnings %q, want one naming the log and saying the index is rebuilt", warnings)
	}
}

// TestAManifestWriteCutByACrashLeavesOneIndex: a manifest write folds
// the log into a segment, creates a new log, renames the manifest, then
// removes the old log. Cut before the rename, the files it made are
// strays beside the index as it was; cut after it, the old log is a stray
// beside the new index. Either way the hits are right, nothing is
// reported, and the next update removes the old log.
func TestAManifestWriteCutByACrashLeavesOneIndex(t *testing.T) {
	s, _, _ := loggedStore(t, "alpha zeta")
	dir := index.Dir(s.st)
	before := indexFiles(t, s)
	e := s.session("three", strings.Repeat("a long prompt about lemurs ", 50_000)) // past what one log entry takes
	want, _ := s.find(s.index(), "alpha zeta lemurs", index.Filter{})
	after := indexFiles(t, s)
	oldLog := filepath.Base(logPath(t, s))
	for n := range before {
		if strings.HasPrefix(n, "log-") {
			oldLog = n
		}
	}
	if _, ok := after[oldLog]; ok || before["MANIFEST"] == after["MANIFEST"] {
		t.Fatal("the long session did not write a manifest with a new log")
	}
	for _, tc := range []struct {
		name        string
		base, extra map[string]string
	}{
		{"cut before the rename", before, after},
		{"cut after the rename", after, map[string]string{oldLog: before[oldLog]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			for n, data := range tc.extra {
				if _, inBase := tc.base[n]; !inBase && n != "MANIFEST" {
					os.WriteFile(filepath.Join(dir, n), []byte(data), 0o600)
				}
			}
			for n, data := range tc.base {
				os.WriteFile(filepath.Join(dir, n), []byte(data), 0o600)
			}
			got, warnings := s.find(s.index(), "alpha zeta lemurs", index.Filter{})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if len(warnings) != 0 {
				t.Errorf("warnings %q, want none", warnings)
			}
			s.turn(e, "a turn that updates the index")
			s.find(s.index(), "turn", index.Filter{})
			if _, err := os.Lstat(filepath.Join(dir, oldLog)); err == nil {
				t.Errorf("%s, the log the manifest replaced, is still there", oldLog)
			}
			want, _ = s.find(s.index(), "alpha zeta lemurs", index.Filter{}) // with the turn
		})
	}
}
