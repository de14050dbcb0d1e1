package main

import (
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	msg "github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// TestReproForkCopiesTornLine reproduces an issue the kill harness found
// (invariant 3): a torn last line, which the next append leaves in place,
// is copied byte for byte by journal.Fork (session fork) into the middle
// of the new journal, so storage verify reports damage in a journal no
// crash touched. Skipped unless KILLHARNESS_REPRO is set.
func TestReproForkCopiesTornLine(t *testing.T) {
	if os.Getenv("KILLHARNESS_REPRO") == "" {
		t.Skip("reproduction of a known issue; run with KILLHARNESS_REPRO=1")
	}
	dir, id := t.TempDir(), journal.NewID()
	j, _, err := journal.Open(dir, id, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	h := []msg.Message{{Role: msg.RoleUser, Content: "one"}, {Role: msg.RoleAssistant, Content: "reply"}}
	if _, err := j.Sync(h[:1], journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	// A kill inside the next append's write(2) leaves a prefix of its line.
	f, err := os.OpenFile(journal.Path(dir, id), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","seq":2,"at":"2026-`)
	f.Close()
	// The next process appends after a "\n": the torn bytes stay as line 2.
	j2, _, err := journal.Open(dir, id, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j2.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	src, err := journal.Verify(journal.Path(dir, id), seal.Key{})
	if err != nil || len(src.Warnings) != 1 {
		t.Fatalf("source journal: %v %v", err, src.Warnings)
	}
	fid, _, err := journal.Fork(dir, id, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := journal.Verify(journal.Path(dir, fid), seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Fatalf("the fork's new journal holds %d damaged line(s) no crash left in it: %v", len(res.Warnings), res.Warnings)
	}
}
