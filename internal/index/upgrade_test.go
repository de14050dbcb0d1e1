package index_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/session"
)

// TestAnIndexOfTheEarlierFormatIsRebuilt: testdata/v1 is a store whose
// index the previous build wrote (format version 1, posting lists
// without skip tables). It is never read as this version's: the first
// update says so, rebuilds it with progress in version 2, and finds what
// the sessions hold.
func TestAnIndexOfTheEarlierFormatIsRebuilt(t *testing.T) {
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS("testdata/v1")); err != nil {
		t.Fatal(err)
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	heard := 0
	ix := index.Open(index.Options{Store: st, JournalDir: filepath.Join(home, "transcripts"),
		Progress: func(done, total int64) { heard++ }})
	defer ix.Close()
	said, err := ix.Sync()
	if err != nil {
		t.Fatal(err)
	}
	warnings := english(said)
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "format version 1") }) {
		t.Errorf("warnings %q, want one naming format version 1", warnings)
	}
	if heard == 0 {
		t.Error("the rebuild reported no progress")
	}
	for query, want := range map[string]string{"wombats": "s1#1", `"deploy freeze"`: "s0#1", "otters": "s0#3"} {
		hits, w, err := ix.Find(query, index.Filter{Roles: []string{"user"}}, 0)
		if err != nil || len(w) > 0 || !slices.Equal(where(hits), []string{want}) {
			t.Errorf("%s: %v, warnings %q, %v; want %s", query, where(hits), w, err, want)
		}
	}
	entries, err := os.ReadDir(index.Dir(st))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(index.Dir(st), e.Name())); err == nil && len(data) >= 16 && data[9] != 2 {
			t.Errorf("%s has format version %d after the rebuild, want 2", e.Name(), data[9])
		}
	}
}

// TestAnIndexOfTheEarlierFormatSealedIsLeftWithoutTheKey: an index of the
// earlier format that is sealed is left as it is without the key, as a
// sealed index of this format is, rather than rebuilt in plaintext.
func TestAnIndexOfTheEarlierFormatSealedIsLeftWithoutTheKey(t *testing.T) {
	s := newStore(t, testKey)
	s.session("one", "sealed words")
	s.find(s.index(), "sealed", index.Filter{})
	dir := index.Dir(s.st)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if data, err := os.ReadFile(path); err == nil && len(data) >= 16 {
			data[9] = 1
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := files(t, dir)
	plain, err := session.Open(s.st.Dir())
	if err != nil {
		t.Fatal(err)
	}
	ix := index.Open(index.Options{Store: plain, JournalDir: s.journals})
	defer ix.Close()
	if _, err := ix.Sync(); !errors.Is(err, session.ErrStoreEncrypted) {
		t.Fatalf("Sync without the key: %v, want ErrStoreEncrypted", err)
	}
	after := files(t, dir)
	for name, data := range before {
		if string(after[name]) != string(data) {
			t.Errorf("%s changed", name)
		}
	}
}
