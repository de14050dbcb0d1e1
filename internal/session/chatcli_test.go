package session

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/google/go-cmp/cmp"
)

// ChatCLI 1.188.0's types for session files (diillson/chatcli,
// models/models.go, models/tool_types.go, models/image.go), with the JSON
// tags it decodes them by: arguments is an object, an image's data is
// bytes (base64 in JSON), is_error a boolean.
type (
	ccSession struct {
		Version      int         `json:"version"`
		Title        string      `json:"title,omitempty"`
		ChatHistory  []ccMessage `json:"chat_history"`
		AgentHistory []ccMessage `json:"agent_history,omitempty"`
		CoderHistory []ccMessage `json:"coder_history,omitempty"`
		SharedMemory []ccMessage `json:"shared_memory,omitempty"`
	}
	ccMessage struct {
		Role        string       `json:"role"`
		Content     string       `json:"content"`
		Meta        *ccMeta      `json:"meta,omitempty"`
		ToolCalls   []ccToolCall `json:"tool_calls,omitempty"`
		ToolCallID  string       `json:"tool_call_id,omitempty"`
		SystemParts []struct {
			Type         string `json:"type"`
			Text         string `json:"text,omitempty"`
			CacheControl *struct {
				Type string `json:"type"`
			} `json:"cache_control,omitempty"`
		} `json:"system_parts,omitempty"`
		Images    []ccImage `json:"images,omitempty"`
		IsError   bool      `json:"is_error,omitempty"`
		ErrorCode string    `json:"error_code,omitempty"`
	}
	ccMeta struct {
		IsSummary        bool   `json:"is_summary,omitempty"`
		SummaryOf        int    `json:"summary_of,omitempty"`
		Mode             string `json:"mode,omitempty"`
		PreserveVerbatim bool   `json:"preserve_verbatim,omitempty"`
		AgentFeedback    bool   `json:"agent_feedback,omitempty"`
		SkillNames       string `json:"skill_names,omitempty"`
		SkillCollapsed   bool   `json:"skill_collapsed,omitempty"`
	}
	ccToolCall struct {
		ID        string         `json:"id"`
		Type      string         `json:"type"`
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Raw       string         `json:"raw,omitempty"`
	}
	ccImage struct {
		MediaType string `json:"media_type"`
		Data      []byte `json:"data,omitempty"`
		URL       string `json:"url,omitempty"`
		FileName  string `json:"file_name,omitempty"`
	}
)

// chatcliShows is the history ChatCLI 1.188.0 shows for a file: its
// SessionManager.LoadSessionV2 (version 2 first, else a bare array, else
// "arquivo de sessão corrompido") then ChatCLI.restoreSessionData (the
// non-system messages of agent_history and coder_history after
// chat_history).
func chatcliShows(t *testing.T, data []byte) []ccMessage {
	t.Helper()
	var sd ccSession
	if err := json.Unmarshal(data, &sd); err != nil || sd.Version < 2 {
		var legacy []ccMessage
		if err2 := json.Unmarshal(data, &legacy); err2 != nil {
			t.Fatalf("ChatCLI cannot read the file: %v / %v", err, err2)
		}
		return legacy
	}
	h := sd.ChatHistory
	for _, m := range append(sd.AgentHistory, sd.CoderHistory...) {
		if m.Role != "system" {
			h = append(h, m)
		}
	}
	return h
}

// shown is what a person sees of a message in either program.
type shown struct {
	Role, Content string
	Summary       bool
	SummaryOf     int
	Calls         []shownCall
	CallID        string
	Images        []ccImage
	IsError       bool
}

type shownCall struct {
	ID, Name string
	Args     map[string]any
}

func shownCC(h []ccMessage) []shown {
	out := make([]shown, len(h))
	for i, m := range h {
		s := shown{Role: m.Role, Content: m.Content, CallID: m.ToolCallID, Images: m.Images, IsError: m.IsError}
		if m.Meta != nil {
			s.Summary, s.SummaryOf = m.Meta.IsSummary, m.Meta.SummaryOf
		}
		for _, c := range m.ToolCalls {
			s.Calls = append(s.Calls, shownCall{c.ID, c.Name, c.Arguments})
		}
		out[i] = s
	}
	return out
}

// shownOurs views chatcli's messages as ChatCLI gets them: arguments parsed
// as its OpenAI adapter parses the model's text ({"raw": text} when it is
// no object), image data decoded.
func shownOurs(t *testing.T, h []message.Message) []shown {
	out := make([]shown, len(h))
	for i, m := range h {
		s := shown{Role: string(m.Role), Content: m.Content, CallID: m.ToolCallID}
		if m.Meta != nil {
			s.Summary, s.SummaryOf, s.IsError = m.Meta.IsSummary, m.Meta.SummaryOf, m.Meta.ToolError
		}
		for _, c := range m.ToolCalls {
			var args map[string]any
			if json.Unmarshal([]byte(c.Arguments), &args) != nil {
				args = map[string]any{"raw": c.Arguments}
			}
			s.Calls = append(s.Calls, shownCall{c.ID, c.Name, args})
		}
		for _, img := range m.Images {
			data, err := base64.StdEncoding.DecodeString(img.Data)
			if err != nil {
				t.Fatalf("message #%d: image data: %v", i+1, err)
			}
			if len(data) == 0 {
				data = nil
			}
			s.Images = append(s.Images, ccImage{img.MediaType, data, img.URL, img.FileName})
		}
		out[i] = s
	}
	return out
}

// compatFiles are the session files ChatCLI 1.188.0 (and 1.65, 1.66) wrote.
func compatFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/chatcli-1.188.0/*.json")
	if len(files) < 14 {
		t.Fatalf("compat files missing: %v", files)
	}
	return files
}

// Every file ChatCLI wrote loads in chatcli with the messages ChatCLI shows
// for it, is listed with that count, and once continued and saved by
// chatcli is read by ChatCLI's types with the same messages (nothing merged
// twice, arguments as objects, images as objects).
func TestChatCLIFilesLoadAndGoBack(t *testing.T) {
	files := compatFiles(t)
	s := newStore(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		want := shownCC(chatcliShows(t, data))
		if err := os.WriteFile(filepath.Join(s.Dir(), name+".json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(want, shownOurs(t, got.History)); d != "" {
			t.Fatalf("%s: chatcli shows other messages than ChatCLI (-ChatCLI +chatcli):\n%s", name, d)
		}
		if h, err := s.Stat(name); err != nil || h.Messages != len(want) {
			t.Errorf("%s: listed with %d messages (%v), ChatCLI shows %d", name, h.Messages, err, len(want))
		}
		got.History = append(got.History, message.Message{Role: message.RoleUser, Content: "continued"},
			message.Message{Role: message.RoleAssistant, Content: "in chatcli"})
		if err := s.Save(name, got); err != nil {
			t.Fatal(err)
		}
		written, _ := os.ReadFile(filepath.Join(s.Dir(), name+".json"))
		if d := cmp.Diff(shownOurs(t, got.History), shownCC(chatcliShows(t, written))); d != "" {
			t.Fatalf("%s: after chatcli's save ChatCLI reads (-chatcli +ChatCLI):\n%s", name, d)
		}
		again, err := s.Load(name)
		if err != nil || !cmp.Equal(got.History, again.History) {
			t.Fatalf("%s: reloaded: %v\n%s", name, err, cmp.Diff(got.History, again.History))
		}
	}
}

// What chatcli writes for chat, agent and coder sessions (tool calls with
// compact, pretty and non-object arguments, failed tool results, images,
// a compaction summary, checkpoints) is read by ChatCLI's types with the
// same messages, and read back by chatcli with the exact argument text.
func TestChatCLIReadsWhatChatcliWrites(t *testing.T) {
	h := []message.Message{
		{Role: message.RoleSystem, Content: "coder <mode> & rules"},
		{Role: message.RoleUser, Content: "[summary]", Meta: &message.Meta{IsSummary: true, SummaryOf: 4}},
		{Role: message.RoleUser, Content: "look at this", Images: []message.Image{
			{MediaType: "image/png", Data: "iVBORw0KGgo=", FileName: "red & blue.png"},
			message.ParseImageRef("data:image/jpeg;base64,/9j/4A=="),
			message.ParseImageRef("https://example.com/a.png")}},
		{Role: message.RoleAssistant, Content: "", ToolCalls: []message.ToolCall{
			{ID: "c1", Type: "function", Name: "read_file", Arguments: `{"path":"a<b>.go","n":1.50}`},
			{ID: "c2", Type: "function", Name: "exec", Arguments: "{\n  \"cmd\": \"go test\"\n}"},
			{ID: "c3", Type: "function", Name: "grep", Arguments: "not json"},
			{ID: "c4", Name: "noop", Arguments: ""},
			{ID: "c5", Name: "list", Arguments: `[1,2]`}}},
		{Role: message.RoleTool, ToolCallID: "c1", Content: "package a"},
		{Role: message.RoleTool, ToolCallID: "c2", Content: "exit 1", Meta: &message.Meta{ToolError: true}},
		{Role: message.RoleTool, ToolCallID: "c3", Content: "none"},
		{Role: message.RoleTool, ToolCallID: "c4", Content: ""},
		{Role: message.RoleTool, ToolCallID: "c5", Content: "ok"},
		{Role: message.RoleAssistant, Content: "done", Meta: &message.Meta{Mode: "coder"}},
		{Role: message.RoleUser, Content: "again", Meta: &message.Meta{Unanswered: true}},
	}
	sess := &Session{TranscriptID: "t1", History: h, Checkpoints: json.RawMessage(`[{"seq":3,"count":2,"digest":"ab"}]`)}
	data, err := Encode(sess)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(shownOurs(t, h), shownCC(chatcliShows(t, data))); d != "" {
		t.Fatalf("ChatCLI reads other messages (-chatcli +ChatCLI):\n%s", d)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(h, back.History); d != "" {
		t.Fatalf("chatcli reads back other messages:\n%s", d)
	}
}

// A tool result ChatCLI marked failed is a failed tool result in chatcli,
// and its error code is kept.
func TestChatCLIToolErrorIsToolError(t *testing.T) {
	doc := `{"version":2,"chat_history":[{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","name":"f","arguments":{},"raw":"<tool_call/>"}]},` +
		`{"role":"tool","content":"no such file","tool_call_id":"a","is_error":true,"error_code":"ENOENT"}]}`
	s, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	res := s.History[1]
	if res.Meta == nil || !res.Meta.ToolError || string(res.Extra["error_code"]) != `"ENOENT"` {
		t.Fatalf("tool result read as %+v", res)
	}
	if c := s.History[0].ToolCalls[0]; c.Arguments != "{}" || string(c.Extra["raw"]) != `"<tool_call/>"` {
		t.Fatalf("call read as %+v", c)
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"is_error":true`, `"error_code":"ENOENT"`, `"raw":"<tool_call/>"`, `"arguments":{}`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rewrite lost %s:\n%s", want, out)
		}
	}
}

// chatcliSaves rewrites the file at p as ChatCLI saves what it loaded: its
// SessionData marshalled again, so every member and field it does not know
// is gone.
func chatcliSaves(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(ccSession{Version: 2, Title: "t", ChatHistory: chatcliShows(t, data)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// After ChatCLI's rewrite a session gets back its journal, creation time and
// the meta ChatCLI drops; a different conversation ChatCLI saved under the
// same name later is not tied to the old journal.
func TestRelinkAfterChatCLIRewrite(t *testing.T) {
	s := newStore(t)
	dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
	s.SetJournalDir(dir)
	h := []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"},
		{Role: message.RoleUser, Content: "cancelled", Meta: &message.Meta{Unanswered: true, Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}}}
	j, _, err := journal.Open(dir, journal.NewID(), s.Key())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	if err := s.Save("n", &Session{TranscriptID: j.ID(), History: h}); err != nil {
		t.Fatal(err)
	}
	saved, _ := s.Load("n")
	p, _ := s.Path("n")
	chatcliSaves(t, p)
	got, err := s.Load("n")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Relinked || got.TranscriptID != j.ID() || !got.CreatedAt.Equal(saved.CreatedAt) {
		t.Fatalf("not relinked: %+v", got)
	}
	if d := cmp.Diff(h, got.History); d != "" {
		t.Fatalf("meta not restored:\n%s", d)
	}
	other := `{"version":2,"chat_history":[{"role":"user","content":"another talk"}]}`
	if err := os.WriteFile(p, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load("n"); err != nil || got.Relinked || got.TranscriptID != "" {
		t.Fatalf("a new conversation was tied to the old journal: %+v %v", got, err)
	}
}

// Sessions ChatCLI created under names chatcli would not give open, save,
// rename (to a chatcli name) and delete; new sessions under such names are
// still refused.
func TestChatCLINamesOpen(t *testing.T) {
	s := newStore(t)
	doc := []byte(`{"version":2,"chat_history":[{"role":"user","content":"hi"}]}`)
	for _, n := range []string{"con", "nul.txt", "a..b", "release-v2."} {
		if err := os.WriteFile(filepath.Join(s.Dir(), n+".json"), doc, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(n)
		if err != nil || len(got.History) != 1 {
			t.Fatalf("%s: %v", n, err)
		}
		if err := s.Save(n, got); err != nil {
			t.Fatalf("save %s: %v", n, err)
		}
	}
	if err := s.Rename("a..b", "a-b"); err != nil || !s.Exists("a-b") {
		t.Fatalf("rename: %v", err)
	}
	if err := s.Delete("release-v2."); err != nil || s.Exists("release-v2.") {
		t.Fatalf("delete: %v", err)
	}
	for _, n := range []string{"com1", "x..y", "new-v3.", "../con"} {
		if err := s.Save(n, &Session{}); !errors.Is(err, ErrInvalidName) {
			t.Errorf("new session %q: %v", n, err)
		}
	}
	if err := s.Rename("con", "aux"); !errors.Is(err, ErrInvalidName) {
		t.Errorf("rename to a new reserved name: %v", err)
	}
}
