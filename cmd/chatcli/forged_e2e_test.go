//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One forged sealed line in a plaintext journal does not stop journalling
// or export: the turn after it is journalled, the export holds every
// message, and the line is reported as damaged.
func TestAForgedSealedLineStopsNeitherJournallingNorExport(t *testing.T) {
	env, home, id, _ := hostileStore(t)
	p := filepath.Join(home, "transcripts", id+".jsonl")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("chatcli-sealed:v1:Zm9yZ2VkIGxpbmU\n")
	f.Close()
	if _, stderr, code := runBounded(t, env, "", "-p", "after the forgery", "--session", "demo"); code != 0 {
		t.Fatalf("-p after a forged line: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), "after the forgery") {
		t.Error("the turn after the forged line was not journalled")
	}
	out, stderr, code := runBounded(t, env, "", "session", "export", "demo", "md", "-")
	if code != 0 || !strings.Contains(out, "first words") || !strings.Contains(out, "after the forgery") {
		t.Errorf("export after a forged line: exit %d:\n%s\n%s", code, out, stderr)
	}
}
