package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ChatCLI's input history (written by ChatCLI 1.188.0) becomes the history
// of a chatcli that has none, once; an existing history is left alone.
func TestHistorySeededFromChatCLI(t *testing.T) {
	seed := "testdata/chatcli_history-1.188.0.txt"
	data, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	path := filepath.Join(t.TempDir(), "home", "history")
	ed, err := New(Config{HistoryFile: path, HistorySeed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if got := ed.History(); ed.Seeded() != len(want) || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("seeded %d: %q", ed.Seeded(), got)
	}
	if err := ed.Add("chatcli line"); err != nil {
		t.Fatal(err)
	}
	again, err := New(Config{HistoryFile: path, HistorySeed: seed})
	if err != nil || again.Seeded() != 0 || len(again.History()) != len(want)+1 {
		t.Fatalf("second start: seeded %d, %d entries, %v", again.Seeded(), len(again.History()), err)
	}
	if n, err := seedHistory(filepath.Join(t.TempDir(), "h"), filepath.Join(t.TempDir(), "none"), 0, lineCodec{}); n != 0 || err != nil {
		t.Fatalf("no seed: %d %v", n, err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(bad, []byte("a\x00b\n"), 0o600)
	target := filepath.Join(t.TempDir(), "h")
	if _, err := New(Config{HistoryFile: target, HistorySeed: bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a seed that is not text: %v", err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("written from a bad seed")
	}
}
