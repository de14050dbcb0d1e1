package importer

import (
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

// codexCompacted is a rollout whose compacted line is the CompactedItem of
// openai/codex's test reconstruct_history_uses_replacement_history_verbatim
// (codex-rs/core/src/codex_tests.rs; see testdata/README.md): an empty
// message and a replacement_history of the user message "summary" and a
// developer message.
const codexCompacted = "testdata/codex/rollout-2026-03-01T09-00-00-33333333-3333-4333-8333-333333333333.jsonl"

// Codex's model goes on from a compacted line's replacement_history
// (its resume puts it in place of everything before). The reader keeps
// every message in order, and the compaction with what the model went on
// from: the replacement's user message the history did not hold is the
// summary (meta.is_summary, summary_of the messages it stands for), the
// developer message is left out as Codex's own.
func TestReadCodexReplacementHistory(t *testing.T) {
	c, problems := readOne(t, codex, codexCompacted)
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if got, want := shape(c.Messages), "u a u a u u a"; got != want {
		t.Fatalf("shape %q, want %q", got, want)
	}
	if len(c.Compactions) != 1 || c.Compactions[0].At != 4 {
		t.Fatalf("compactions %+v", c.Compactions)
	}
	h := c.Compactions[0].History
	if len(h) != 1 || h[0].Meta == nil || !h[0].Meta.IsSummary || h[0].Meta.SummaryOf != 4 || !strings.HasSuffix(h[0].Content, "\n\nsummary") {
		t.Fatalf("the history the model went on from: %+v", h)
	}
	// A local compaction whose replacement keeps the first request and
	// lacks the summary: the summary goes last, standing for the 3 others.
	c, _ = readOne(t, codex, "testdata/codex/rollout-2026-02-01T08-00-00-22222222-2222-4222-8222-222222222222.jsonl")
	if len(c.Compactions) != 1 {
		t.Fatalf("compactions %+v", c.Compactions)
	}
	h = c.Compactions[0].History
	if shape(h) != "u u" || h[0].Content != "Rename the config loader." || !h[1].Meta.IsSummary || h[1].Meta.SummaryOf != 3 {
		t.Fatalf("the history the model went on from: %+v", h)
	}
}

// An imported compaction is kept as chatcli keeps its own: the session
// holds what Codex's model went on from and what came after, the journal
// the messages before it and a compact rewrite; a second import adds
// nothing, lines added to the rollout later are appended after the
// compacted history, and `/rewind compact` gives the messages back.
func TestImportCodexCompactionAsChatcliKeepsOne(t *testing.T) {
	f := newFixture(t)
	path := copyFile(t, codexCompacted)
	out := f.importFile(t, codex, path)
	sess, err := f.st.Load(out.Session)
	if err != nil {
		t.Fatal(err)
	}
	if got := shape(sess.History); got != "u u a" || !sess.History[0].Meta.IsSummary || sess.History[2].Content != "Done." {
		t.Fatalf("session %q: %+v", got, sess.History)
	}
	before, after, err := journal.LastRewrite(journal.Path(f.w.JournalDir, sess.TranscriptID), journal.ReasonCompact, f.st.Key())
	if err != nil || len(before) != 4 || len(after) != 1 {
		t.Fatalf("compact rewrite: %d before, %d after (%v)", len(before), len(after), err)
	}
	if again := f.importFile(t, codex, path); again.Added != 0 {
		t.Fatalf("a second import added %d", again.Added)
	}
	appendLines(t, path, `{"timestamp":"2026-03-01T09:01:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"One more."}]}}`+"\n")
	if more := f.importFile(t, codex, path); more.Added != 1 {
		t.Fatalf("after growing: %+v", more)
	}
	if sess, _ = f.st.Load(out.Session); shape(sess.History) != "u u a u" {
		t.Fatalf("grown session %q", shape(sess.History))
	}
	e := conversation.New(conversation.Options{Store: f.st, Provider: offline.New(""), JournalDir: f.w.JournalDir})
	if _, err := e.Load(out.Session); err != nil {
		t.Fatal(err)
	}
	if n, err := e.UndoCompact(); err != nil || n != 4 || e.History()[0].Content != "Describe the repository layout." {
		t.Fatalf("rewind compact: %d messages (%v)", n, err)
	}
}
