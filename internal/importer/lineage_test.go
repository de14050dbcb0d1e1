package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const (
	claudeA = "aaaaaaaa-0000-4000-8000-000000000001"
	claudeB = "bbbbbbbb-0000-4000-8000-000000000002"
	claudeC = "cccccccc-0000-4000-8000-000000000003"
)

// claudeTurns writes a Claude Code session file named <file>.jsonl in dir:
// user and assistant entries u<n>/a<n> for n in turns, their sessionId
// session, the first one's parentUuid parent ("" for none).
func claudeTurns(t *testing.T, dir, file, session, parent string, turns ...int) string {
	t.Helper()
	var b strings.Builder
	prev := parent
	for _, n := range turns {
		for _, e := range []struct{ typ, uuid, content string }{
			{"user", fmt.Sprintf("u%d", n), fmt.Sprintf(`"question %d"`, n)},
			{"assistant", fmt.Sprintf("a%d", n), fmt.Sprintf(`[{"type":"thinking","thinking":"think %d","signature":"s"},{"type":"text","text":"answer %d"}]`, n, n)},
		} {
			p := "null"
			if prev != "" {
				p = `"` + prev + `"`
			}
			fmt.Fprintf(&b, `{"type":%q,"uuid":%q,"parentUuid":%s,"sessionId":%q,"cwd":"/w","timestamp":"2026-03-0%dT10:00:00Z","message":{"role":%q,"model":"claude-x","content":%s}}`+"\n",
				e.typ, e.uuid, p, session, n, e.typ, e.content)
			prev = e.uuid
		}
	}
	path := filepath.Join(dir, file+".jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// importRun imports the files as `chatcli import` does: a conversation
// that continues one not imported yet waits for the end of the run.
func (f *fixture) importRun(t *testing.T, paths ...string) (added int, sessions map[string]bool) {
	t.Helper()
	sessions = map[string]bool{}
	var waiting []Conversation
	do := func(c Conversation) {
		out, err := f.w.Import(claudeCode.Prefix, c)
		if err != nil {
			t.Fatal(err)
		}
		added += out.Added
		sessions[out.Session] = true
	}
	for _, p := range paths {
		c, _ := readOne(t, claudeCode, p)
		if f.w.Waiting(c) {
			waiting = append(waiting, c)
			continue
		}
		do(c)
	}
	for c := range f.w.Later(waiting) {
		do(c)
	}
	return added, sessions
}

// A resumed Claude Code session is a new file whose first entry's parent
// is the earlier file's last entry; one written in the layout of
// anthropics/claude-code issue 30606 repeats the earlier entries under the
// earlier sessionId. Either way it extends the earlier conversation's
// session, whichever file the run reads first, and a second run adds
// nothing.
func TestAResumedClaudeSessionExtendsTheFirst(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	a := claudeTurns(t, dir, claudeA, claudeA, "", 1, 2)       // the first conversation
	b := claudeTurns(t, dir, claudeB, claudeB, "a2", 3)        // resumed from A's last entry
	c := claudeTurns(t, dir, claudeC, claudeA, "", 1, 2, 3, 4) // A's and B's entries again, then turn 4
	added, sessions := f.importRun(t, b, a)                    // the resumed file first
	if len(sessions) != 1 || added != 6 {
		t.Fatalf("resumed session: %d messages into %v", added, sessions)
	}
	var name string
	for n := range sessions {
		name = n
	}
	sess, err := f.st.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range sess.History {
		got = append(got, m.Content)
	}
	want := "question 1|answer 1|question 2|answer 2|question 3|answer 3"
	if strings.Join(got, "|") != want {
		t.Fatalf("history %q, want %q", strings.Join(got, "|"), want)
	}
	if r := sess.History[5].Meta; r == nil || r.Reasoning == nil || r.Reasoning.Text != "think 3" || r.Reasoning.Source != "claude-code/claude-x" {
		t.Fatalf("thinking of the resumed reply: %+v", r)
	}
	if added, _ := f.importRun(t, a, b); added != 0 {
		t.Fatalf("a second run added %d", added)
	}
	added, more := f.importRun(t, c)
	if added != 2 || len(more) != 1 || !more[name] {
		t.Fatalf("a file repeating the earlier entries: %d messages into %v", added, more)
	}
	sess, _ = f.st.Load(name)
	if n := len(sess.History); n != 8 || sess.History[7].Content != "answer 4" {
		t.Fatalf("%d messages after the repeating file", n)
	}
}

// An extended session's imported_from names every file it was built from,
// in import order, while its first members keep the shape the previous
// build decodes (the conversation written last). A session whose
// imported_from an earlier build wrote, without sources, keeps its first
// conversation when a resumed one extends it, and a lost record entry of
// that first conversation is recovered from its source.
func TestAnExtendedSessionNamesEveryFile(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	a := claudeTurns(t, dir, claudeA, claudeA, "", 1, 2)
	b := claudeTurns(t, dir, claudeB, claudeB, "a2", 3)
	_, sessions := f.importRun(t, a)
	var name string
	for n := range sessions {
		name = n
	}
	// The file as the previous build wrote it: one conversation, no sources.
	sess, _ := f.st.Load(name)
	sess.Extra[OriginMember] = json.RawMessage(fmt.Sprintf(`{"tool":"claude-code","id":%q,"source":%q,"folder":"/w","messages":4}`, claudeA, a))
	if err := f.st.Save(name, sess); err != nil {
		t.Fatal(err)
	}
	if _, more := f.importRun(t, b); len(more) != 1 || !more[name] {
		t.Fatalf("not extended: %v", more)
	}
	sess, _ = f.st.Load(name)
	var got struct {
		origin
		Sources []map[string]any `json:"sources"`
	}
	if err := json.Unmarshal(sess.Extra[OriginMember], &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{"id": claudeA, "source": a, "messages": 4.0}, {"id": claudeB, "source": b, "messages": 2.0}}
	if !reflect.DeepEqual(got.Sources, want) {
		t.Fatalf("sources %v, want %v", got.Sources, want)
	}
	// The previous build's origin struct: the conversation written last.
	var prev struct {
		Tool, ID, Source string
		Messages         int
	}
	if err := json.Unmarshal(sess.Extra[OriginMember], &prev); err != nil || prev.Tool != "claude-code" || prev.ID != claudeB || prev.Source != b || prev.Messages != 2 {
		t.Fatalf("the previous build reads %+v (%v)", prev, err)
	}
	// A run that lost the record: the first conversation is found again
	// in the session it went to, and nothing is added twice.
	f.loseRecord(t)
	if added, more := f.importRun(t, a); added != 0 || !more[name] {
		t.Fatalf("with the record lost: %d messages into %v", added, more)
	}
}
