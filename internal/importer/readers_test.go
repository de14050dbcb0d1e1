package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// readOne reads a fixture with src and returns its one conversation.
func readOne(t *testing.T, src Source, path string) (Conversation, []Problem) {
	t.Helper()
	convs, problems, err := src.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 1 {
		t.Fatalf("%s: %d conversations, want 1", path, len(convs))
	}
	return convs[0], problems
}

// shape is a history in short: one letter per message (u user, a
// assistant, t tool) and, for an assistant, one c per tool call.
func shape(h []message.Message) string {
	var b strings.Builder
	for _, m := range h {
		b.WriteString(string(m.Role[0]))
		b.WriteString(strings.Repeat("c", len(m.ToolCalls)))
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

func mustValid(t *testing.T, c Conversation) {
	t.Helper()
	if err := message.Validate(c.Messages); err != nil {
		t.Errorf("%s: history does not pass Validate: %v", c.Path, err)
	}
}

func TestReadClaudeCode(t *testing.T) {
	c, problems := readOne(t, claudeCode, "testdata/claude-code/55550000-0000-4000-8000-000000000001.jsonl")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.ID != "55550000-0000-4000-8000-000000000001" || c.Folder != "/workspace/example-app" {
		t.Errorf("id %q folder %q", c.ID, c.Folder)
	}
	if got, want := shape(c.Messages), "u ac t ac t ac t acc t t a"; got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	call := c.Messages[1].ToolCalls[0]
	if call.ID != "toolu_sc_inspect" || call.Name != "mcp__plugin_showcase_example__inspect_repository_structure" || call.Arguments != `{"path": "."}` {
		t.Errorf("call %+v", call)
	}
	if r := c.Messages[2]; r.ToolCallID != "toolu_sc_inspect" || !strings.Contains(r.Content, `"repository": "example-app"`) {
		t.Errorf("result %+v", r)
	}
	if r := c.Messages[8]; !strings.HasPrefix(r.Content, "The web module renders its pages in a column layout") || !strings.Contains(r.Content, "agentId: showcol1") {
		t.Errorf("block-list result %q", r.Content)
	}
	want0 := time.Date(2026, 6, 15, 10, 0, 1, 0, time.UTC)
	if !c.Created.Equal(want0) || !c.Updated.Equal(want0.Add(10*time.Second)) {
		t.Errorf("times %v %v", c.Created, c.Updated)
	}
	if string(c.Messages[0].Extra["timestamp"]) != `"2026-06-15T10:00:01Z"` {
		t.Errorf("message time %s", c.Messages[0].Extra["timestamp"])
	}
	mustValid(t, c)
}

// A reply Claude Code wrote as several entries, one block each, and again
// whole, becomes one assistant message; summary lines title it; sidechain
// and meta entries and other entry types stay out; bad lines are named.
func TestReadClaudeCodeStreamedReplyAndBadLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	lines := `{"type":"summary","summary":"Deploy freeze","leafUuid":"x"}
{"type":"user","sessionId":"abc","cwd":"/w","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"when does the freeze end?"}}
{"type":"user","sessionId":"abc","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>"}}
{"type":"assistant","sessionId":"abc","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"hm"}]}}
{"type":"assistant","sessionId":"abc","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Friday."}]}}
{"type":"assistant","sessionId":"abc","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"date"}}]}}
{"type":"assistant","sessionId":"abc","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Friday."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"date"}}]}}
{"type":"user","sessionId":"abc","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"boom","is_error":true}]}}
{"type":"assistant","sessionId":"abc","isSidechain":true,"message":{"id":"m2","role":"assistant","content":"side"}}
{"type":"file-history-snapshot","snapshot":{}}
not json at all
{"hello":"world"}
`
	if err := os.WriteFile(p, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	c, problems := readOne(t, claudeCode, p)
	if c.Title != "Deploy freeze" || c.ID != "abc" {
		t.Errorf("title %q id %q", c.Title, c.ID)
	}
	if got := shape(c.Messages); got != "u ac t" {
		t.Errorf("shape %q", got)
	}
	if c.Messages[1].Content != "Friday." || !c.Messages[2].Meta.ToolError {
		t.Errorf("reply %q, error mark %+v", c.Messages[1].Content, c.Messages[2].Meta)
	}
	if len(problems) != 2 || problems[0].Line != 11 || problems[1].Line != 12 || !strings.Contains(problems[0].String(), p+":11: not JSON") {
		t.Errorf("problems %v", problems)
	}
}

func TestReadCodex(t *testing.T) {
	c, problems := readOne(t, codex, "testdata/codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.ID != "11111111-1111-4111-8111-111111111111" || c.Folder != "/workspace/synthetic-project" {
		t.Errorf("id %q folder %q", c.ID, c.Folder)
	}
	if got, want := shape(c.Messages), "u ac t ac t ac t a"; got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	if a := c.Messages[1].ToolCalls[0]; a.Name != "exec_command" || a.Arguments != `{"cmd":"find . -maxdepth 1 -type f"}` {
		t.Errorf("call %+v", a)
	}
	if r := c.Messages[4]; r.Content != "Done!" || r.ToolCallID != "call-custom-001" {
		t.Errorf("custom output %+v", r)
	}
	if c.Messages[7].Content != "The synthetic files are alpha.txt and beta.txt." {
		t.Errorf("reply %q", c.Messages[7].Content)
	}
	if r := c.Messages[1].Meta; r == nil || r.Reasoning == nil || r.Reasoning.Text != "I will inspect the synthetic directory." {
		t.Errorf("the reasoning summary is not the call's reasoning: %+v", r)
	}
	for _, m := range c.Messages {
		if strings.Contains(m.Content, "SYNTHETIC_ENCRYPTED") || m.Meta != nil && m.Meta.Reasoning != nil && strings.Contains(m.Meta.Reasoning.Text, "SYNTHETIC_ENCRYPTED") {
			t.Error("encrypted reasoning was imported")
		}
	}
	mustValid(t, c)
}

func TestReadCodexOlderLayout(t *testing.T) {
	c, problems := readOne(t, codex, "testdata/codex/rollout-2024-01-01T10-00-00-test-session-789.jsonl")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.ID != "test-session-789" || shape(c.Messages) != "u ac t" || c.Messages[1].ToolCalls[0].Name != "Write" {
		t.Errorf("id %q shape %q", c.ID, shape(c.Messages))
	}
	mustValid(t, c)
}

func TestReadGeminiRecord(t *testing.T) {
	c, problems := readOne(t, gemini, "testdata/gemini/session-2026-02-03T09-15-7c1e2f3a.json")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.ID != "7c1e2f3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b" || c.Title != "Greeting and a failed write" {
		t.Errorf("id %q title %q", c.ID, c.Title)
	}
	if got, want := shape(c.Messages), "u ac t ac t"; got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	if r := c.Messages[2]; r.Content != "a.txt\nb.txt" || r.ToolCallID != "call-1" {
		t.Errorf("result %+v", r)
	}
	if r := c.Messages[4]; r.Content != "Permission denied" || r.Meta == nil || !r.Meta.ToolError {
		t.Errorf("failed result %+v", r)
	}
	if c.Messages[3].ToolCalls[0].Arguments != `{ "file_path": "notes.md", "content": "hi" }` {
		t.Errorf("args %q", c.Messages[3].ToolCalls[0].Arguments)
	}
	mustValid(t, c)
}

func TestReadGeminiLines(t *testing.T) {
	c, problems := readOne(t, gemini, "testdata/gemini/session-2026-03-04T11-20-9d8c7b6a.jsonl")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.Title != "Deploy freeze question" || shape(c.Messages) != "u a" || c.Messages[1].Content != "The deploy freeze ends on Friday." {
		t.Errorf("title %q shape %q %+v", c.Title, shape(c.Messages), c.Messages)
	}
}

func TestReadOpencode(t *testing.T) {
	c, problems := readOne(t, opencode, "testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.Title != "Fix the login bug" || c.Folder != "/home/user/work/webapp" {
		t.Errorf("title %q folder %q", c.Title, c.Folder)
	}
	if got, want := shape(c.Messages), "u ac t ac t a"; got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
	if r := c.Messages[4]; r.Content != "File was modified since it was read" || !r.Meta.ToolError {
		t.Errorf("failed result %+v", r)
	}
	if !c.Created.Equal(time.UnixMilli(1767261600000)) || !c.Updated.Equal(time.UnixMilli(1767261720000)) {
		t.Errorf("times %v %v", c.Created, c.Updated)
	}
	mustValid(t, c)
}

func TestUnreadableFilesAreErrorsNamingThem(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.json")
	os.WriteFile(bad, []byte(`{"info":`), 0o600)
	for _, src := range []Source{gemini, opencode} {
		if _, _, err := src.Read(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: error %v does not name %s", src.Name, err, bad)
		}
	}
	if _, _, err := claudeCode.Read(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("a missing file read without error")
	}
}

func TestBaseName(t *testing.T) {
	for _, tc := range []struct {
		prefix, title, id, want string
	}{
		{"claude", "Fix the login bug!", "55550000-0000-4000-8000-00000000abcd", "claude-fix-the-login-bug-0000abcd"},
		{"opencode", "", "ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT", "opencode-mn0pr5st"},
		{"gemini", "Привет, мир", "9d8c7b6a-1234-4abc-8def-0123456789ab", "gemini-привет-мир-456789ab"},
		{"codex", "Übersetze: das Ganze, bitte — schnell und gründlich, mit Tests und Doku", "x", "codex-ubersetze-das-ganze-bitte-schnell-und-x"},
	} {
		if got := BaseName(tc.prefix, Conversation{Title: tc.title, ID: tc.id}); got != tc.want {
			t.Errorf("BaseName(%q, %q) = %q, want %q", tc.title, tc.id, got, tc.want)
		}
	}
}
