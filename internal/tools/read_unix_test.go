//go:build unix

package tools

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestSpecialFilesAreRefused(t *testing.T) {
	b := autoBox(t)
	if err := syscall.Mkfifo(filepath.Join(b.Root(), "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "fifo"}},
		{"write_file", map[string]any{"path": "fifo", "content": "x"}},
		{"edit_file", map[string]any{"path": "fifo", "old_string": "x", "new_string": "y"}},
	} {
		if got, isErr := run(t, b, c.tool, c.args); !isErr || !strings.Contains(got, "not a regular file") {
			t.Errorf("%s: %q", c.tool, got)
		}
	}
	// A search walks past it without blocking.
	if got, isErr := run(t, b, "search_files", map[string]any{"pattern": "x"}); isErr || !strings.HasPrefix(got, "no matches") {
		t.Errorf("search: %q", got)
	}
}
