package index_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/index"
)

// A journal that is a link to a file outside the store is never followed:
// the index skips it with a warning naming what it is, and nothing of the
// file it names is found.
func TestLinkedJournalIsNotFollowed(t *testing.T) {
	s := newStore(t, "")
	s.session("one", "alpha beta", "gamma")
	ids, _ := filepath.Glob(filepath.Join(s.journals, "*.jsonl"))
	if len(ids) != 1 {
		t.Fatalf("journals %v", ids)
	}
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.Rename(ids[0], outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, ids[0]); err != nil {
		t.Fatal(err)
	}
	hits, warnings := s.find(s.index(), "alpha", index.Filter{})
	if len(hits) != 0 {
		t.Errorf("the linked journal was read: %v", where(hits))
	}
	id := strings.TrimSuffix(filepath.Base(ids[0]), ".jsonl")
	if len(warnings) != 1 || !strings.Contains(warnings[0], "skipped journal "+id) || !strings.Contains(warnings[0], "symbolic link") {
		t.Errorf("warnings %q", warnings)
	}
}

// An index folder that is a link to a folder outside the store is never
// written or emptied through: Sync and Drop refuse it, naming it, and
// the files of the folder it names stay as they were.
func TestLinkedIndexFolderIsRefused(t *testing.T) {
	s := newStore(t, "")
	s.session("one", "alpha beta")
	outside := t.TempDir()
	kept := filepath.Join(outside, "MANIFEST")
	if err := os.WriteFile(kept, []byte("not the store's"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, index.Dir(s.st)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.index().Sync(); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Sync through a linked folder: %v", err)
	}
	if dropped, err := index.Drop(s.st); dropped || err == nil || !strings.Contains(err.Error(), index.Dir(s.st)) {
		t.Errorf("Drop through a linked folder: %v %v", dropped, err)
	}
	entries, _ := os.ReadDir(outside)
	if data, _ := os.ReadFile(kept); string(data) != "not the store's" || len(entries) != 1 {
		t.Errorf("the folder outside was changed: %d entries, MANIFEST %q", len(entries), data)
	}
}
