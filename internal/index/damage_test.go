package index_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// TestDamagedIndexReportedAndRebuilt breaks index files on purpose: every
// break is reported by file name and the index is rebuilt with the same
// hits, never trusted.
func TestDamagedIndexReportedAndRebuilt(t *testing.T) {
	type breakage struct {
		name   string
		file   string // "manifest" or "segment"
		change func([]byte) []byte
	}
	flip := func(at int) func([]byte) []byte {
		return func(b []byte) []byte { b[at%len(b)] ^= 0x40; return b }
	}
	for _, tc := range []breakage{
		{"manifest cut short", "manifest", func(b []byte) []byte { return b[:len(b)/2] }},
		{"manifest bit flipped", "manifest", flip(40)},
		{"manifest foreign", "manifest", func([]byte) []byte { return []byte(`{"segments":[]}`) }},
		{"manifest too new", "manifest", func(b []byte) []byte { b[9] = 9; return b }},
		{"manifest empty", "manifest", func([]byte) []byte { return nil }},
		{"segment cut short", "segment", func(b []byte) []byte { return b[:len(b)-7] }},
		{"segment trailer flipped", "segment", func(b []byte) []byte { b[len(b)-3] ^= 1; return b }},
		{"segment postings flipped", "segment", flip(30)},
		{"segment removed", "segment", nil},
		{"segment foreign", "segment", func([]byte) []byte { return bytes.Repeat([]byte("x"), 100) }},
		{"log removed", "log", nil},
		{"log foreign", "log", func(b []byte) []byte { b[8] = 'S'; return b }},
		{"log too new", "log", func(b []byte) []byte { b[9] = 9; return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, "")
			s.session("one", "alpha beta gamma", "delta alpha")
			s.session("two", "gamma gamma epsilon")
			want, _ := s.find(s.index(), "alpha gamma", index.Filter{})
			path := filepath.Join(index.Dir(s.st), "MANIFEST")
			switch tc.file {
			case "segment":
				path = firstSegment(t, s)
			case "log":
				path = logPath(t, s)
			}
			if tc.change == nil {
				os.Remove(path)
			} else {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, tc.change(data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, warnings := s.find(s.index(), "alpha gamma", index.Filter{})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hits after the damage (-want +got):\n%s", diff)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], filepath.Base(path)) || !strings.Contains(warnings[0], "rebuilt") {
				t.Errorf("warnings %q, want one naming %s and saying the index is rebuilt", warnings, filepath.Base(path))
			}
			if _, w := s.find(s.index(), "alpha", index.Filter{}); len(w) != 0 {
				t.Errorf("the rebuilt index still warns: %q", w)
			}
		})
	}
}

// TestIndexOfAnotherKeyRebuilt: an index sealed under another key, or
// plaintext once a key is set, is rebuilt, and the plaintext one removed.
func TestIndexOfAnotherKeyRebuilt(t *testing.T) {
	s := newStore(t, "")
	s.session("one", "plaintext kiwi words")
	s.find(s.index(), "kiwi", index.Filter{})
	k, err := seal.ParseKey(testKey)
	if err != nil {
		t.Fatal(err)
	}
	s.st.SetKey(k) // the store is now encrypted: a plaintext index is not kept
	hits, said, err := s.index().Find("kiwi", index.Filter{}, 0)
	warnings := english(said)
	if err != nil || len(hits) != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "plaintext in an encrypted store") || strings.Contains(warnings[0], "damaged") {
		t.Fatalf("hits %v, warnings %q, err %v", where(hits), warnings, err)
	}
	filepath.WalkDir(index.Dir(s.st), func(p string, d os.DirEntry, err error) error {
		if data, _ := os.ReadFile(p); err == nil && !d.IsDir() && bytes.Contains(data, []byte("kiwi")) {
			t.Errorf("%s still holds the plaintext index", p)
		}
		return nil
	})
}

// TestSealedIndexLeftAloneWithoutTheKey: without the key a sealed index
// is neither read nor replaced: Find fails with session.ErrStoreEncrypted
// naming the key variable, every index file stays as it was, and with the
// key the same index answers again without a rebuild.
func TestSealedIndexLeftAloneWithoutTheKey(t *testing.T) {
	s := newStore(t, testKey)
	s.session("one", "sealed kiwi words")
	s.find(s.index(), "kiwi", index.Filter{})
	before := indexFiles(t, s)
	s.st.SetKey(seal.Key{})
	s.session("two", "plaintext kiwi words")
	_, _, err := s.index().Find("kiwi", index.Filter{}, 0)
	if !errors.Is(err, session.ErrStoreEncrypted) || !strings.Contains(err.Error(), "CHATCLI_ENCRYPTION_KEY") {
		t.Fatalf("Find without the key: %v, want ErrStoreEncrypted", err)
	}
	if diff := cmp.Diff(before, indexFiles(t, s)); diff != "" {
		t.Fatalf("index files changed without the key (-before +after):\n%s", diff)
	}
	k, _ := seal.ParseKey(testKey)
	s.st.SetKey(k)
	hits, warnings, err := s.index().Find("kiwi", index.Filter{}, 0)
	if err != nil || len(warnings) != 0 || len(hits) != 4 {
		t.Fatalf("with the key again: hits %v, warnings %q, err %v", where(hits), warnings, err)
	}
}

// indexFiles returns every file of s's index by name, with its bytes.
func indexFiles(t *testing.T, s *store) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(index.Dir(s.st))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(index.Dir(s.st), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// firstSegment returns the path of one segment file of s's index.
func firstSegment(t *testing.T, s *store) string {
	t.Helper()
	for name := range segments(t, s) {
		return filepath.Join(index.Dir(s.st), name)
	}
	t.Fatal("no segment")
	return ""
}
