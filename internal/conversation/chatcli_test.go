package conversation

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/retention"
)

// A ChatCLI 1.66 file with separate agent and coder histories is merged on
// load, said once, and written merged when the conversation closes: the next
// load says nothing and has the same 13 messages.
func TestChatCLI166ModesMergedAndSaidOnce(t *testing.T) {
	f := newFixture(t)
	data, err := os.ReadFile("../session/testdata/chatcli-1.188.0/v166-scoped.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.store.Dir(), "old.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	e := f.engine(nil)
	if _, err := e.Load("old"); err != nil {
		t.Fatal(err)
	}
	if len(e.History()) != 13 || len(f.notices) != 1 || !strings.Contains(f.notices[0], "merged 8 messages") {
		t.Fatalf("%d messages, notices %q", len(e.History()), f.notices)
	}
	if _, err := e.Close(false); err != nil {
		t.Fatal(err)
	}
	f.notices = nil
	e2 := f.engine(nil)
	if _, err := e2.Load("old"); err != nil {
		t.Fatal(err)
	}
	if len(e2.History()) != 13 || len(f.notices) != 0 {
		t.Fatalf("reloaded: %d messages, notices %q", len(e2.History()), f.notices)
	}
}

// chatcliRewrite rewrites a session file as ChatCLI 1.188.0 saves one
// (SessionManager.SaveSessionV2 of its SessionData): only version, title and
// the histories, each message with only the fields of its models.Message,
// after appending a turn of its own.
func chatcliRewrite(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version     int                          `json:"version"`
		Title       string                       `json:"title,omitempty"`
		ChatHistory []map[string]json.RawMessage `json:"chat_history"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{"role": true, "content": true, "meta": true, "tool_calls": true, "tool_call_id": true,
		"system_parts": true, "images": true, "is_error": true, "error_code": true}
	for _, m := range doc.ChatHistory {
		for k := range m {
			if !keep[k] {
				delete(m, k)
			}
		}
		if raw, ok := m["meta"]; ok {
			var mt struct {
				IsSummary bool   `json:"is_summary,omitempty"`
				SummaryOf int    `json:"summary_of,omitempty"`
				Mode      string `json:"mode,omitempty"`
			}
			json.Unmarshal(raw, &mt)
			m["meta"], _ = json.Marshal(mt)
		}
	}
	for _, turn := range []string{`{"role":"user","content":"from ChatCLI"}`, `{"role":"assistant","content":"ChatCLI's reply"}`} {
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(turn), &m)
		doc.ChatHistory = append(doc.ChatHistory, m)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Back and forth on the shared store: chatcli writes a session with its
// journal and checkpoints, ChatCLI rewrites the file without them and adds
// a turn, and chatcli loads it with ChatCLI's turn, its journal and its
// checkpoints (rewind works), the journal is no orphan for retention, and
// the next save names it again.
func TestChatCLIRewriteKeepsJournalAndCheckpoints(t *testing.T) {
	f := newFixture(t)
	home := filepath.Dir(f.store.Dir())
	dir := filepath.Join(home, "transcripts")
	e := f.engine(nil)
	e.setJournalDir(dir)
	turn(t, e, "one")
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "two")
	turn(t, e, "three")
	cps := len(e.Checkpoints())
	if _, err := e.Close(true); err != nil || cps < 3 {
		t.Fatalf("close: %v, %d checkpoints", err, cps)
	}
	before, _ := f.store.Load("s")
	path, _ := f.store.Path("s")
	chatcliRewrite(t, path)
	if raw, _ := os.ReadFile(path); strings.Contains(string(raw), "transcript_id") {
		t.Fatal("the rewrite kept transcript_id")
	}
	plan, err := retention.Plan(home, retention.Rules{SessionTTL: time.Nanosecond}, time.Now().Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range plan.Items {
		if it.Reason == retention.ReasonOrphanJournal {
			t.Fatalf("retention would delete the journal: %+v", it)
		}
	}

	f.notices = nil
	e2 := f.engine(nil)
	e2.setJournalDir(dir)
	if _, err := e2.Load("s"); err != nil {
		t.Fatal(err)
	}
	if len(e2.History()) != len(before.History)+2 || len(e2.Checkpoints()) != cps || e2.JournalID() != before.TranscriptID {
		t.Fatalf("%d messages (want %d), %d checkpoints (want %d), journal %q (want %q)", len(e2.History()), len(before.History)+2,
			len(e2.Checkpoints()), cps, e2.JournalID(), before.TranscriptID)
	}
	if !strings.Contains(strings.Join(f.notices, "\n"), "linked it to its journal again") {
		t.Fatalf("not said: %q", f.notices)
	}
	if _, err := e2.Rewind(cps); err != nil { // the oldest: before "one"
		t.Fatal(err)
	}
	if len(e2.History()) != 0 {
		t.Fatalf("rewound to %d messages", len(e2.History()))
	}
	if _, err := e2.Close(true); err != nil {
		t.Fatal(err)
	}
	after, err := f.store.Load("s")
	if err != nil || after.TranscriptID != before.TranscriptID || after.Relinked {
		t.Fatalf("saved again: %q relinked=%v (%v)", after.TranscriptID, after.Relinked, err)
	}
	if after.Revision <= before.Revision {
		t.Fatalf("revision %d after ChatCLI's rewrite, %d before it", after.Revision, before.Revision)
	}
}

// With the journal off (CHATCLI_SESSION_TRANSCRIPT=false; the store still
// knows the journal folder, as the command's factory sets it), a session's
// revision keeps growing across ChatCLI's rewrite: the next save is above
// every revision written before it, so a window holding an older one never
// takes the new file for the one it knew.
func TestChatCLIRewriteKeepsRevisionWithoutJournal(t *testing.T) {
	f := newFixture(t)
	f.store.SetJournalDir(filepath.Join(filepath.Dir(f.store.Dir()), "transcripts"))
	e := f.engine(nil)
	turn(t, e, "one")
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "two")
	turn(t, e, "three")
	if _, err := e.Close(true); err != nil {
		t.Fatal(err)
	}
	before, err := f.store.Load("s")
	if err != nil || before.TranscriptID != "" || before.Revision < 2 {
		t.Fatalf("before the rewrite: journal %q, revision %d (%v)", before.TranscriptID, before.Revision, err)
	}
	path, _ := f.store.Path("s")
	chatcliRewrite(t, path)
	e2 := f.engine(nil)
	if _, err := e2.Load("s"); err != nil {
		t.Fatal(err)
	}
	turn(t, e2, "four")
	if _, err := e2.Close(true); err != nil {
		t.Fatal(err)
	}
	after, err := f.store.Load("s")
	if err != nil || len(after.History) != len(before.History)+4 {
		t.Fatalf("after: %d messages (want %d), %v", len(after.History), len(before.History)+4, err)
	}
	if after.Revision <= before.Revision {
		t.Fatalf("revision %d after ChatCLI's rewrite, %d before it", after.Revision, before.Revision)
	}
}
