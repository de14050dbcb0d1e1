package retention

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// foreignAutosave writes an autosave in ChatCLI's own layout (no
// message_count, no updated_at: its time is the file's mtime, updated) and
// returns its path and bytes.
func (f *fixture) foreignAutosave(name string, updated time.Time) (string, []byte) {
	f.t.Helper()
	doc := []byte("{\n  \"version\": 2,\n  \"title\": \"hello\",\n  \"chat_history\": [\n" +
		"    {\n      \"role\": \"user\",\n      \"content\": \"hello\"\n    },\n" +
		"    {\n      \"role\": \"assistant\",\n      \"content\": \"hi\"\n    }\n  ]\n}\n")
	p := filepath.Join(f.home, "sessions", name+".json")
	if err := os.WriteFile(p, doc, 0o600); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chtimes(p, updated, updated); err != nil {
		f.t.Fatal(err)
	}
	return p, doc
}

// A session in another program's layout rewritten in place after the
// plan, to the same size and with its mtime set back, is seen as changed
// (the list index tests its inode and ctime too) and read again: broken
// now, it is spared as unreadable, not trashed on the plan's reading of
// it. An index keyed by size and mtime alone listed the old header.
func TestApplySparesAForeignFileRewrittenInPlace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the list index tests the ctime on Linux only")
	}
	f := newFixture(t)
	old := now.Add(-100 * day)
	p, doc := f.foreignAutosave("autosave-20260101-000000", old)
	plan := f.plan(rulesWith(90*day, 0))
	if got := names(plan.Items, ReasonTTL); !slices.Equal(got, []string{"autosave-20260101-000000"}) {
		t.Fatalf("plan: %v", got)
	}
	broken := bytes.Replace(doc, []byte(`"assistant",`), []byte(`"assistant"@`), 1)
	if err := os.WriteFile(p, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(plan)
	if err != nil || res.Count(ReasonTTL) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Why != "unreadable now" {
		t.Fatalf("apply: %+v %v; want the rewritten file spared as unreadable", res, err)
	}
}

// A file that changed since apply listed it is read again: one rewritten
// (a new mtime, so a new time for a file without updated_at) is spared.
func TestApplyReadsAChangedFileAgain(t *testing.T) {
	f := newFixture(t)
	old := now.Add(-100 * day)
	p, _ := f.foreignAutosave("autosave-20260101-000000", old)
	plan := f.plan(rulesWith(90*day, 0))
	if len(plan.Items) != 1 {
		t.Fatalf("plan: %+v", plan.Items)
	}
	if err := os.Chtimes(p, now, now); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(plan)
	if err != nil || len(res.Removed) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Why != "updated since the plan" {
		t.Fatalf("apply: %+v %v", res, err)
	}
}
