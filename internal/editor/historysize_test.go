package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// HISTORY_MAX_SIZE caps the file in bytes: past it the oldest entries go,
// in the file and in memory, and the newest stay.
func TestHistoryByteCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	e, err := New(Config{In: strings.NewReader(""), Out: &strings.Builder{}, HistoryFile: path, HistoryMax: 1000, HistoryMaxBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		if err := e.Add(fmt.Sprintf("prompt %02d", i)); err != nil { // 10 bytes a line
			t.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() > 100 {
		t.Fatalf("history file %v bytes (%v), want at most 100", st.Size(), err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(data), "prompt 29\n") || !strings.HasPrefix(string(data), "prompt 20\n") {
		t.Errorf("file kept:\n%s", data)
	}
	if h := e.History(); len(h) != 10 || h[9] != "prompt 29" {
		t.Errorf("in memory %q", h)
	}
	// A file already past the cap is read within it.
	e2, err := New(Config{In: strings.NewReader(""), Out: &strings.Builder{}, HistoryFile: path, HistoryMaxBytes: 30})
	if err != nil {
		t.Fatal(err)
	}
	if h := e2.History(); len(h) != 3 || h[0] != "prompt 27" {
		t.Errorf("loaded under a 30-byte cap: %q", h)
	}
}
