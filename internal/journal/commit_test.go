package journal

import (
	"errors"
	"slices"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

func contents(h []message.Message) []string {
	var out []string
	for _, m := range h {
		out = append(out, m.Content)
	}
	return out
}

// two returns two handles on one journal that both recorded base.
func two(t *testing.T, base []message.Message) (a, b *Journal, dir, id string) {
	t.Helper()
	dir, id = t.TempDir(), NewID()
	a, b = open(t, dir, id), open(t, dir, id)
	sync1(t, a, base, len(base))
	if _, err := b.Commit(base, &Hashes{}, ReasonSync, nil); err != nil {
		t.Fatal(err)
	}
	return a, b, dir, id
}

func commit(t *testing.T, j *Journal, h []message.Message) Commit {
	t.Helper()
	c, err := j.Commit(h, &Hashes{}, ReasonSync, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func wantView(t *testing.T, dir, id string, want ...string) {
	t.Helper()
	j := open(t, dir, id)
	got, err := Resolve(j.Path(), noKey, []Prefix{{Messages: len(j.View()), Digest: DigestOf(j.View())}})
	if err != nil || !slices.Equal(contents(got[0]), want) {
		t.Fatalf("journal view %q (%v), want %q", contents(got[0]), err, want)
	}
}

func TestCommitInterleavesAppendsOfTwoWindows(t *testing.T) {
	base := []message.Message{msg("user", "q0"), msg("assistant", "a0")}
	a, b, dir, id := two(t, base)
	commit(t, a, append(slices.Clone(base), msg("user", "qa"), msg("assistant", "aa")))
	c := commit(t, b, append(slices.Clone(base), msg("user", "qb")))
	if c.Adopted != 2 || !slices.Equal(contents(c.History), []string{"q0", "a0", "qa", "aa", "qb"}) {
		t.Fatalf("b's history %q, adopted %d", contents(c.History), c.Adopted)
	}
	wantView(t, dir, id, "q0", "a0", "qa", "aa", "qb")
	// a's next commit takes in b's prompt the same way.
	c = commit(t, a, append(slices.Clone(base), msg("user", "qa"), msg("assistant", "aa"), msg("user", "qa2")))
	if !slices.Equal(contents(c.History), []string{"q0", "a0", "qa", "aa", "qb", "qa2"}) {
		t.Fatalf("a's history %q", contents(c.History))
	}
}

func TestCommitKeepsAToolCallWithItsResults(t *testing.T) {
	call := message.Message{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "c1", Type: "function", Name: "read_file", Arguments: "{}"}}}
	base := []message.Message{msg("user", "task"), call}
	a, b, dir, id := two(t, base)
	commit(t, a, append(slices.Clone(base), msg("user", "elsewhere")))
	result := message.Message{Role: message.RoleTool, ToolCallID: "c1", Content: "file"}
	c := commit(t, b, append(slices.Clone(base), result))
	if err := message.Validate(c.History); err != nil {
		t.Fatalf("the merged history splits the call from its result: %v (%q)", err, contents(c.History))
	}
	wantView(t, dir, id, "task", "", "file", "elsewhere")
}

func TestCommitRebasesRewritesOverAppends(t *testing.T) {
	base := []message.Message{msg("user", "q0"), msg("assistant", "a0"), msg("user", "q1"), msg("assistant", "a1")}
	summary := msg("user", "summary")
	// a compacts, b appends: b's messages follow a's compacted view.
	a, b, dir, id := two(t, base)
	commit(t, a, []message.Message{summary, base[3]})
	c := commit(t, b, append(slices.Clone(base), msg("user", "qb")))
	if !slices.Equal(contents(c.History), []string{"summary", "a1", "qb"}) {
		t.Fatalf("append after a rewrite elsewhere: %q", contents(c.History))
	}
	wantView(t, dir, id, "summary", "a1", "qb")
	// a appends, b compacts: a's messages follow b's compacted view.
	a, b, dir, id = two(t, base)
	commit(t, a, append(slices.Clone(base), msg("user", "qa")))
	c = commit(t, b, []message.Message{summary, base[3]})
	if !slices.Equal(contents(c.History), []string{"summary", "a1", "qa"}) {
		t.Fatalf("rewrite after an append elsewhere: %q", contents(c.History))
	}
	wantView(t, dir, id, "summary", "a1", "qa")
	// both rewrite the same base: a conflict, nothing written.
	a, b, dir, id = two(t, base)
	commit(t, a, []message.Message{summary, base[3]})
	_, err := b.Commit(base[:2], &Hashes{}, ReasonRewind, nil)
	var rc *RewriteConflict
	if !errors.As(err, &rc) || !slices.Equal(contents(rc.Theirs), []string{"summary", "a1"}) {
		t.Fatalf("two rewrites: %v", err)
	}
	wantView(t, dir, id, "summary", "a1")
}

// A handle opened at a snapshot's position reads only what follows it,
// and still reads the right records after the journal's lines moved
// (sealed at a keyed append).
func TestOpenAtReadsOnlyTheTailAndSurvivesMovedLines(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	w := open(t, dir, id)
	h := []message.Message{msg("user", "q0"), msg("assistant", "a0")}
	sync1(t, w, h, 2)
	pos, view := w.Pos(), slices.Clone(w.View())
	h = append(h, msg("user", "q1"))
	sync1(t, w, h, 1)
	recs, end, _, err := ReadAfter(w.Path(), noKey, pos)
	if err != nil || len(recs) != 1 || recs[0].Message.Content != "q1" || end != w.Pos() {
		t.Fatalf("ReadAfter: %d records, %+v vs %+v, %v", len(recs), end, w.Pos(), err)
	}
	key, _ := seal.ParseKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
	sealed, _, err := Open(dir, id, key)
	if err != nil {
		t.Fatal(err)
	}
	h = append(h, msg("assistant", "a1"))
	if _, err := sealed.Sync(h, ReasonSync); err != nil { // seals every line: offsets move
		t.Fatal(err)
	}
	recs, _, _, err = ReadAfter(sealed.Path(), key, pos)
	if err != nil || !slices.Equal(contents(messagesIn(recs)), []string{"q1", "a1"}) {
		t.Fatalf("ReadAfter on moved lines: %q %v", contents(messagesIn(recs)), err)
	}
	j, err := OpenAt(dir, id, key, pos, view, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := j.Commit(h[:2], &Hashes{}, ReasonSync, nil)
	if err != nil || !slices.Equal(contents(c.History), []string{"q0", "a0", "q1", "a1"}) {
		t.Fatalf("OpenAt then Commit: %q %v", contents(c.History), err)
	}
}

func messagesIn(recs []Record) []message.Message {
	var out []message.Message
	for _, r := range recs {
		if r.Type == TypeMessage {
			out = append(out, *r.Message)
		}
	}
	return out
}
