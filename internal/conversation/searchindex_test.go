package conversation

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/index"
)

// TestSearchSessionsUpdatesTheIndexAfterATurn: the REPL's and MCP's
// search keeps one persistent index open; after a turn it is found, the
// segments and manifest written before are left as they were, and the
// turn is one entry appended to the index's log.
func TestSearchSessionsUpdatesTheIndexAfterATurn(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(filepath.Join(filepath.Dir(f.store.Dir()), "transcripts"))
	turn(t, e, "alpha words")
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	if hits, _, err := e.SearchSessions("alpha", 5); err != nil || len(hits) != 2 {
		t.Fatalf("alpha: %v %v", hits, err)
	}
	ix := e.sessionsCache.index
	before := segmentFiles(t, index.Dir(f.store))
	manifest, log := indexFiles(t, index.Dir(f.store), "MANIFEST"), indexFiles(t, index.Dir(f.store), "log-*")
	turn(t, e, "zebra crossing")
	hits, _, err := e.SearchSessions("zebra", 5)
	if err != nil || len(hits) != 2 || hits[0].Doc.Source != "s" {
		t.Fatalf("zebra: %v %v", hits, err)
	}
	if e.sessionsCache.index != ix {
		t.Error("the index was opened again")
	}
	after := segmentFiles(t, index.Dir(f.store))
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("segment %s was rewritten", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d segments after one turn, want the %d there were", len(after), len(before))
	}
	if !bytes.Equal(indexFiles(t, index.Dir(f.store), "MANIFEST")["MANIFEST"], manifest["MANIFEST"]) {
		t.Error("the manifest was written again")
	}
	for name, data := range indexFiles(t, index.Dir(f.store), "log-*") {
		if len(data) <= len(log[name]) || !bytes.HasPrefix(data, log[name]) {
			t.Errorf("log %s went from %d to %d bytes, want one entry appended", name, len(log[name]), len(data))
		}
	}
}

// segmentFiles returns the segment files in dir by name.
func segmentFiles(t *testing.T, dir string) map[string][]byte { return indexFiles(t, dir, "seg-*") }

// indexFiles returns the files in dir matching pattern by name; there is
// at least one.
func indexFiles(t *testing.T, dir, pattern string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	matches, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, p := range matches {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = data
	}
	if len(out) == 0 {
		t.Fatalf("no %s in %s", pattern, dir)
	}
	return out
}
