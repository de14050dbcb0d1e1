package importer

import (
	"strings"
	"testing"
)

// Codex's reasoning items become the reasoning of the assistant message
// they led to (the encrypted part left out), and a compacted line becomes
// a summary message after the messages it summarised, all of them kept.
func TestReadCodexReasoningAndCompaction(t *testing.T) {
	c, problems := readOne(t, codex, "testdata/codex/rollout-2026-02-01T08-00-00-22222222-2222-4222-8222-222222222222.jsonl")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if got, want := shape(c.Messages), "u ac t a u u a"; got != want {
		t.Fatalf("shape %q, want %q", got, want)
	}
	r := c.Messages[1].Meta
	if r == nil || r.Reasoning == nil || r.Reasoning.Text != "Find the loader first.\n\ngrep for LoadConfig" || r.Reasoning.Source != "codex/gpt-5-codex" {
		t.Fatalf("reasoning of the call: %+v", r)
	}
	sum := c.Messages[4]
	if sum.Meta == nil || !sum.Meta.IsSummary || !strings.HasSuffix(sum.Content, "LoadConfig is in config.go:12.") {
		t.Fatalf("summary %+v", sum)
	}
	if c.Messages[6].Meta != nil && c.Messages[6].Meta.Reasoning != nil {
		t.Fatalf("reasoning without text attached: %+v", c.Messages[6].Meta.Reasoning)
	}
	for _, m := range c.Messages {
		if strings.Contains(m.Content, "OPAQUE") || m.Meta != nil && m.Meta.Reasoning != nil && strings.Contains(m.Meta.Reasoning.Text, "OPAQUE") {
			t.Fatal("encrypted reasoning was imported")
		}
	}
	mustValid(t, c)
}
