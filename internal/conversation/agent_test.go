package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/seal"
)

// oaRequest is the part of a chat-completions request the tests check.
type oaRequest struct {
	Tools []struct {
		Function struct{ Name string } `json:"function"`
	} `json:"tools"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
}

func decodeOA(t *testing.T, body []byte) oaRequest {
	var r oaRequest
	if err := json.Unmarshal(body, &r); err != nil {
		t.Errorf("request body: %v", err)
	}
	return r
}

func TestAgentLoopOverOpenAIWithParallelSplitCalls(t *testing.T) {
	f := newFixture(t)
	srv := newWireServer(t, "/v1/chat/completions", func(n int, body []byte, w http.ResponseWriter) {
		if msg := strictCheck(body); msg != "" {
			t.Errorf("request %d refused by a strict server: %s", n, msg)
		}
		req := decodeOA(t, body)
		if len(req.Tools) != 3 || req.Tools[0].Function.Name != "list_files" {
			t.Errorf("request %d tools = %+v", n, req.Tools)
		}
		switch n {
		case 0:
			openaiSSE(w, oaText("Looking."),
				oaTool(0, "call_a", "list_files", `{"pa`), oaTool(1, "call_b", "fail", ``),
				oaTool(0, "", "", `th":"."}`), oaTool(1, "", "", `{}`), oaChunk(`{}`, "tool_calls"))
		case 1:
			got := map[string]string{}
			for _, m := range req.Messages {
				if m.Role == "tool" {
					var s string
					json.Unmarshal(m.Content, &s)
					got[m.ToolCallID] = s
				}
			}
			if got["call_a"] != "a.txt\nb.go" || !strings.Contains(got["call_b"], "always fails") || len(got) != 2 {
				t.Errorf("tool results under their ids: %q", got)
			}
			openaiSSE(w, oaText("Two files: a.txt and b.go."), oaChunk(`{}`, "stop"))
		default:
			t.Errorf("unexpected request %d", n)
		}
	})
	p, err := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	box := &dirToolbox{root: workspace(t)}
	e, acts := f.agent(t, p, box, 0)
	if err := e.SetMode(ModeAgent); err != nil {
		t.Fatal(err)
	}
	if err := e.Save("job", false); err != nil {
		t.Fatal(err)
	}
	var streamed strings.Builder
	reply, err := e.Turn(context.Background(), "what files are there?", func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "Two files: a.txt and b.go." || srv.count() != 2 || len(*acts) != 2 || !(*acts)[1].IsError {
		t.Fatalf("reply %q after %d requests, activity %+v", reply.Content, srv.count(), *acts)
	}
	if streamed.String() != "Looking.\nTwo files: a.txt and b.go." {
		t.Errorf("streamed %q", streamed.String())
	}
	h := reloaded(t, f.store, "job")
	roles := ""
	for _, m := range h {
		roles += string(m.Role)[:1]
		if m.Meta == nil || m.Meta.Mode != ModeAgent {
			t.Errorf("message %+v lacks meta.mode agent", m)
		}
	}
	if roles != "suatta" { // system (mode), user, assistant+calls, tool, tool, assistant
		t.Fatalf("roles %q", roles)
	}
	if h[3].ToolCallID != "call_a" || h[3].Meta.ToolError || h[4].ToolCallID != "call_b" || !h[4].Meta.ToolError {
		t.Errorf("tool messages: %+v %+v", h[3], h[4])
	}
	msgs, _, warnings, err := journal.Messages(journal.Path(e.JournalDir(), e.JournalID()), seal.Key{})
	if err != nil || len(warnings) > 0 || len(msgs) != 6 {
		t.Errorf("journal: %d messages, %v, %v", len(msgs), warnings, err)
	}
}

func TestAgentLoopOverAnthropicSendsIsError(t *testing.T) {
	f := newFixture(t)
	srv := newWireServer(t, "/v1/messages", func(n int, body []byte, w http.ResponseWriter) {
		var req struct {
			Tools    []struct{ Name string } `json:"tools"`
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type      string          `json:"type"`
					ToolUseID string          `json:"tool_use_id"`
					IsError   *bool           `json:"is_error"`
					Content   json.RawMessage `json:"content"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("body: %v", err)
		}
		if len(req.Tools) != 3 {
			t.Errorf("tools = %+v", req.Tools)
		}
		switch n {
		case 0:
			evs := [][2]string{anStart(), anTextStart(0), anText(0, "Checking."), anStop(0),
				anToolStart(1, "toolu_a", "list_files"), anJSON(1, `{"path"`), anJSON(1, `: "."}`), anStop(1),
				anToolStart(2, "toolu_b", "fail"), anJSON(2, ""), anStop(2)}
			anthropicSSE(w, append(evs, anEnd("tool_use")...)...)
		case 1:
			last := req.Messages[len(req.Messages)-1]
			if last.Role != "user" || len(last.Content) != 2 || last.Content[0].ToolUseID != "toolu_a" ||
				last.Content[0].IsError != nil || last.Content[1].ToolUseID != "toolu_b" ||
				last.Content[1].IsError == nil || !*last.Content[1].IsError {
				t.Errorf("tool results: %+v", last)
			}
			evs := [][2]string{anStart(), anTextStart(0), anText(0, "Done."), anStop(0)}
			anthropicSSE(w, append(evs, anEnd("end_turn")...)...)
		default:
			t.Errorf("unexpected request %d", n)
		}
	})
	p, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: srv.URL, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := f.agent(t, p, &dirToolbox{root: workspace(t)}, 0)
	if err := e.SetMode(ModeCoder); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Attach("an"); err != nil {
		t.Fatal(err)
	}
	reply, err := e.Turn(context.Background(), "list", nil)
	if err != nil || reply.Content != "Done." || srv.count() != 2 {
		t.Fatalf("reply %q, %v, %d requests", reply.Content, err, srv.count())
	}
	h := reloaded(t, f.store, "an")
	if len(h) != 6 || h[2].ToolCalls[0].Arguments != `{"path": "."}` || h[4].Meta.Mode != ModeCoder || !h[4].Meta.ToolError {
		t.Errorf("history %+v", h)
	}
}

func TestAgentStopsAtTheStepLimitWithAValidHistory(t *testing.T) {
	f := newFixture(t)
	srv := newWireServer(t, "/v1/chat/completions", func(n int, body []byte, w http.ResponseWriter) {
		if msg := strictCheck(body); msg != "" {
			t.Errorf("request %d: %s", n, msg)
		}
		openaiSSE(w, oaTool(0, "call_x", "list_files", `{"path":"."}`), oaChunk(`{}`, "tool_calls"))
	})
	p, _ := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	e, acts := f.agent(t, p, &dirToolbox{root: workspace(t)}, 3)
	e.SetMode(ModeAgent)
	e.Save("loop", false)
	_, err := e.Turn(context.Background(), "loop forever", nil)
	if !errors.Is(err, ErrStepLimit) || !strings.Contains(err.Error(), "3 requests") {
		t.Fatalf("err = %v", err)
	}
	if srv.count() != 3 || len(*acts) != 3 {
		t.Fatalf("%d requests, %d tool runs", srv.count(), len(*acts))
	}
	h := reloaded(t, f.store, "loop")
	if last := h[len(h)-1]; last.Role != message.RoleTool {
		t.Errorf("last message %+v", last)
	}
	for _, m := range h {
		if m.Role == message.RoleUser && m.Meta.Unanswered {
			t.Error("a prompt that got tool steps is not unanswered")
		}
	}
}

func TestCancellingMidLoopMarksPendingCallsInterrupted(t *testing.T) {
	f := newFixture(t)
	srv := newWireServer(t, "/v1/chat/completions", func(n int, body []byte, w http.ResponseWriter) {
		if msg := strictCheck(body); msg != "" {
			t.Errorf("request %d: %s", n, msg)
		}
		if n == 0 {
			openaiSSE(w, oaTool(0, "call_w", "wait", `{}`), oaTool(1, "call_l", "list_files", `{"path":"."}`),
				oaChunk(`{}`, "tool_calls"))
			return
		}
		openaiSSE(w, oaText("fine"), oaChunk(`{}`, "stop"))
	})
	p, _ := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	ctx, cancel := context.WithCancel(context.Background())
	box := &dirToolbox{root: workspace(t), before: func(c message.ToolCall) {
		if c.Name == "wait" {
			cancel() // Esc while the command runs
		}
	}}
	e, _ := f.agent(t, p, box, 0)
	e.SetMode(ModeAgent)
	e.Save("cut", false)
	_, err := e.Turn(ctx, "wait then list", nil)
	if !errors.Is(err, context.Canceled) || srv.count() != 1 || len(box.calls) != 1 {
		t.Fatalf("err = %v, %d requests, calls run %+v", err, srv.count(), box.calls)
	}
	h := reloaded(t, f.store, "cut")
	n := len(h)
	killed, skipped := h[n-2], h[n-1]
	if killed.ToolCallID != "call_w" || !strings.HasPrefix(killed.Content, "killed") || !killed.Meta.ToolError ||
		skipped.ToolCallID != "call_l" || skipped.Content != message.InterruptedResult ||
		skipped.Meta.Repair != message.RepairInterrupted || !skipped.Meta.ToolError {
		t.Fatalf("results: %+v\n%+v", killed, skipped)
	}
	msgs, _, warnings, err := journal.Messages(journal.Path(e.JournalDir(), e.JournalID()), seal.Key{})
	if err != nil || len(warnings) > 0 || len(msgs) != len(h) || msgs[len(msgs)-1].Content != message.InterruptedResult {
		t.Fatalf("journal: %d messages (history %d), %v, %v", len(msgs), len(h), warnings, err)
	}
	// The next turn sends the interrupted history to a strict server.
	if reply, err := e.Turn(context.Background(), "go on", nil); err != nil || reply.Content != "fine" {
		t.Fatalf("next turn: %q %v", reply.Content, err)
	}
}

func TestModesShareOneHistoryAndMarkEveryMessage(t *testing.T) {
	f := newFixture(t)
	e, _ := f.agent(t, nil, &dirToolbox{root: workspace(t)}, 0)
	e.provider = f.engine(nil).provider // offline: text only, even with tools offered
	if err := e.SetMode("robot"); err == nil {
		t.Fatal("unknown mode accepted")
	}
	steps := []struct{ mode, prompt string }{{ModeAgent, "a"}, {ModeChat, "b"}, {ModeCoder, "c"}}
	for _, s := range steps {
		if err := e.SetMode(s.mode); err != nil {
			t.Fatal(err)
		}
		if err := e.SetMode(s.mode); err != nil || e.Mode() != s.mode { // again: no second message
			t.Fatal(err)
		}
		turn(t, e, s.prompt)
	}
	var got []string
	for _, m := range e.History() {
		if m.Meta == nil {
			t.Fatalf("message without meta: %+v", m)
		}
		got = append(got, string(m.Role)[:1]+":"+m.Meta.Mode)
	}
	want := "s:agent u:agent a:agent s:chat u:chat a:chat s:coder u:coder a:coder"
	if strings.Join(got, " ") != want {
		t.Fatalf("history\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if e.History()[0].Content != ModePrompt(ModeAgent) {
		t.Errorf("mode message: %q", e.History()[0].Content)
	}
	if err := e.Save("modes", false); err != nil {
		t.Fatal(err)
	}
	// Another engine (chat mode) loading it announces chat before its turn.
	other := f.engine(nil)
	if _, err := other.Load("modes"); err != nil {
		t.Fatal(err)
	}
	turn(t, other, "d")
	h := reloaded(t, f.store, "modes")
	if m := h[len(h)-3]; m.Role != message.RoleSystem || m.Meta.Mode != ModeChat {
		t.Errorf("no chat announcement before the turn: %+v", m)
	}
	plain := f.engine(nil)
	if err := plain.SetMode(ModeAgent); !errors.Is(err, ErrNoToolbox) {
		t.Errorf("agent mode without tools: %v", err)
	}
}

func TestCallIDsAreMadeUniqueWithinAReply(t *testing.T) {
	calls := uniqueCallIDs([]message.ToolCall{{ID: ""}, {ID: "call_0"}, {ID: "call_0"}, {ID: ""}, {ID: "x"}}, 7)
	seen := map[string]bool{}
	for _, c := range calls {
		if c.ID == "" || seen[c.ID] {
			t.Fatalf("ids %+v", calls)
		}
		seen[c.ID] = true
	}
	if calls[1].ID != "call_0" || calls[2].ID != "call_0~2" || calls[4].ID != "x" {
		t.Errorf("ids the server sent must be kept when unique: %+v", calls)
	}
	h := []message.Message{{Role: message.RoleUser, Content: "u"}, {Role: message.RoleAssistant, ToolCalls: calls}}
	for _, c := range calls {
		h = append(h, message.Message{Role: message.RoleTool, ToolCallID: c.ID})
	}
	if err := message.Validate(h); err != nil {
		t.Error(err)
	}
}
