package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/index"
)

// TestDamagedJournalLineIsNamedAndTheRestIndexed: a block of NUL bytes in
// the middle of a journal is skipped with a warning naming the file and
// line, and the records after it are indexed.
func TestDamagedJournalLineIsNamedAndTheRestIndexed(t *testing.T) { // case dur-2
	s := newStore(t, "")
	s.session("zeros", "first about otters", "second about herons", "third about lynxes")
	paths, _ := filepath.Glob(filepath.Join(s.journals, "*.jsonl"))
	if len(paths) != 1 {
		t.Fatalf("journals %v", paths)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) < 7 {
		t.Fatalf("journal has %d lines", len(lines))
	}
	var damaged []byte
	for i, l := range lines {
		if i == 3 {
			damaged = append(damaged, append(bytes.Repeat([]byte{0}, 500), '\n')...)
		}
		damaged = append(damaged, l...)
	}
	if err := os.WriteFile(paths[0], damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	hits, warnings := s.find(s.index(), "lynxes", index.Filter{Roles: []string{"user"}})
	if len(hits) != 1 || hits[0].Session != "zeros" {
		t.Fatalf("hits %v: the records after the damaged line were not indexed", where(hits))
	}
	want := paths[0] + ":4:"
	found := false
	for _, w := range warnings {
		found = found || strings.Contains(w, want)
	}
	if !found {
		t.Fatalf("warnings %q, want one naming %s", warnings, want)
	}
}
