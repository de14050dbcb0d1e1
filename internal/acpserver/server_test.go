package acpserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/session"
)

func TestInitializeAdvertisesVersionOneWithLoadAndList(t *testing.T) {
	h := start(t, nil, true)
	r, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	if r.ProtocolVersion != 1 || !r.AgentCapabilities.LoadSession || r.AgentCapabilities.SessionCapabilities.List == nil ||
		r.AgentCapabilities.PromptCapabilities.Image || r.AgentInfo == nil || r.AgentInfo.Name != "chatcli" {
		t.Fatalf("initialize: %+v", r)
	}
	if _, err := h.conn.Authenticate(ctx(t), acp.AuthenticateRequest{MethodId: "none"}); err != nil {
		t.Fatalf("authenticate: %v", err)
	}
}

func TestPromptStreamsTheOfflineReplyAndMirrorsTheSession(t *testing.T) {
	h := start(t, nil, true)
	id := h.newSession()
	r, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("hello there")}})
	if err != nil || r.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	text, chunks := agentText(h.client.take(), id)
	if chunks < 2 || !strings.Contains(text, "offline") {
		t.Fatalf("want a streamed offline reply, got %d chunks: %q", chunks, text)
	}
	s, err := h.store.Load("mcp-" + string(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History) != 2 || s.History[0].Content != "hello there" || s.History[1].Content != text {
		t.Fatalf("mirror holds %+v; streamed %q", s.History, text)
	}
	second := h.mustPrompt(id, "again")
	if s, _ = h.store.Load("mcp-" + string(id)); len(s.History) != 4 || s.History[3].Content != second {
		t.Fatalf("mirror after two turns: %+v", s.History)
	}
}

func TestPromptStreamsFromAnOpenAICompatibleServer(t *testing.T) {
	h := start(t, chatServer(t, false), false)
	id := h.newSession()
	r, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("ping")}})
	if err != nil || r.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	var chunks []string
	for _, u := range h.client.take() {
		if u.Update.AgentMessageChunk != nil {
			chunks = append(chunks, u.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	if strings.Join(chunks, "|") != "ech|o: ping" {
		t.Fatalf("chunks %q", chunks)
	}
	h.stop()
	if list, _ := h.store.List(); len(list) != 0 {
		t.Fatalf("mirror off, yet sessions were written: %+v", list)
	}
}

func TestCancelMidStreamEndsCancelledAndKeepsThePromptUnanswered(t *testing.T) {
	h := start(t, chatServer(t, true), true)
	h.client.chunk = make(chan string, 8)
	id := h.newSession()
	type result struct {
		r   acp.PromptResponse
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("slow one")}})
		done <- result{r, err}
	}()
	select {
	case c := <-h.client.chunk:
		if c != "ech" {
			t.Fatalf("first chunk %q", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no chunk before the stall")
	}
	began := time.Now()
	if err := h.conn.Cancel(ctx(t), acp.CancelNotification{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	var res result
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("prompt did not end after session/cancel")
	}
	if res.err != nil || res.r.StopReason != acp.StopReasonCancelled {
		t.Fatalf("want stopReason cancelled, got %+v %v", res.r, res.err)
	}
	t.Logf("cancel to answer: %v", time.Since(began))
	s, err := h.store.Load("mcp-" + string(id))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.History) != 1 || s.History[0].Content != "slow one" || s.History[0].Meta == nil || !s.History[0].Meta.Unanswered {
		t.Fatalf("history after cancel: %+v", s.History)
	}
}

func TestLoadReplaysTheWholeHistoryBeforeAnswering(t *testing.T) {
	h := start(t, nil, true)
	hist := []message.Message{
		{Role: message.RoleSystem, Content: "be brief"},
		{Role: message.RoleUser, Content: "read go.mod"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "call_1", Type: "function", Name: "read_file", Arguments: `{"path":"go.mod"}`}}},
		{Role: message.RoleTool, ToolCallID: "call_1", Content: "module x"},
		{Role: message.RoleAssistant, Content: "It is module x."},
	}
	if err := h.store.Save("proj", &session.Session{History: hist}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "proj", Cwd: "/tmp", McpServers: []acp.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range h.client.take() {
		switch v := u.Update; {
		case u.SessionId != "proj":
			t.Fatalf("update for %q", u.SessionId)
		case v.UserMessageChunk != nil:
			got = append(got, "user:"+v.UserMessageChunk.Content.Text.Text)
		case v.AgentMessageChunk != nil:
			got = append(got, "agent:"+v.AgentMessageChunk.Content.Text.Text)
		case v.ToolCall != nil:
			in, _ := v.ToolCall.RawInput.(map[string]any)
			got = append(got, "tool_call:"+string(v.ToolCall.ToolCallId)+":"+v.ToolCall.Title+":"+in["path"].(string))
		case v.ToolCallUpdate != nil:
			got = append(got, "tool_result:"+string(v.ToolCallUpdate.ToolCallId)+":"+string(*v.ToolCallUpdate.Status)+":"+v.ToolCallUpdate.Content[0].Content.Content.Text.Text)
		}
	}
	want := "user:read go.mod|tool_call:call_1:read_file:go.mod|tool_result:call_1:completed:module x|agent:It is module x."
	if strings.Join(got, "|") != want {
		t.Fatalf("replay:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	// The loaded session is bound: a turn is written through to it.
	h.mustPrompt("proj", "thanks")
	if s, _ := h.store.Load("proj"); len(s.History) != 7 || s.History[5].Content != "thanks" {
		t.Fatalf("after a turn on the loaded session: %+v", s.History)
	}
	if h.store.Exists("mcp-proj") {
		t.Fatal("a bound session was mirrored")
	}
}

func TestSlashSessionAttachBindsOnlyThatACPSession(t *testing.T) {
	h := start(t, nil, true)
	a, b := h.newSession(), h.newSession()
	h.mustPrompt(a, "first in a")
	out := h.mustPrompt(a, "/session attach notes")
	if !strings.Contains(out, "notes") {
		t.Fatalf("attach printed %q", out)
	}
	h.mustPrompt(b, "only in b")
	h.mustPrompt(a, "second in a")
	notes, err := h.store.Load("notes")
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range notes.History {
		if m.Role == message.RoleUser {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, "|") != "first in a|second in a" {
		t.Fatalf("notes holds %q", users)
	}
	mb, err := h.store.Load("mcp-" + string(b))
	if err != nil || len(mb.History) != 2 || mb.History[0].Content != "only in b" {
		t.Fatalf("b's mirror: %+v %v", mb, err)
	}
	if status := h.mustPrompt(b, "/session status"); strings.Contains(status, "notes") {
		t.Fatalf("b reports a's binding: %q", status)
	}
	// No terminal: destructive verbs need --yes.
	_, _, err = h.prompt(a, "/session delete notes")
	rpcError(t, err, codeInvalidParams, "--yes")
	if !h.store.Exists("notes") {
		t.Fatal("deleted without --yes")
	}
	if out := h.mustPrompt(a, "/help"); !strings.Contains(out, "/compact") {
		t.Fatalf("/help printed %q", out)
	}
}

func TestErrorsAreJSONRPCErrorsWithAReason(t *testing.T) {
	h := start(t, nil, true)
	_, _, err := h.prompt("nope", "hi")
	rpcError(t, err, codeResourceNotFound, "nope")

	_, err = h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "../x", Cwd: "/tmp", McpServers: []acp.McpServer{}})
	rpcError(t, err, codeInvalidParams, "../x")
	_, err = h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "mcp-mine", Cwd: "/tmp", McpServers: []acp.McpServer{}})
	rpcError(t, err, codeInvalidParams, "mcp-mine")

	p, _ := h.store.Path("broken")
	if err := os.WriteFile(p, []byte(`{"version":2,"chat_history":[{"role":"us`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "broken", Cwd: "/tmp", McpServers: []acp.McpServer{}})
	rpcError(t, err, codeInternal, p)
	if b, _ := os.ReadFile(p); string(b) != `{"version":2,"chat_history":[{"role":"us` {
		t.Fatalf("a failed load changed the file: %q", b)
	}

	id := h.newSession()
	_, err = h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.ImageBlock("aGk=", "image/png")}})
	rpcError(t, err, codeInvalidParams, "only text")
	_, _, err = h.prompt(id, "/session nosuch")
	rpcError(t, err, codeInvalidParams, "nosuch")
	_, _, err = h.prompt(id, "/session load ghost")
	rpcError(t, err, codeResourceNotFound, "ghost")
}

func TestListSessionsGivesNamesTitlesAndTimes(t *testing.T) {
	h := start(t, nil, true)
	for _, n := range []string{"alpha", "beta"} {
		if err := h.store.Save(n, &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "about " + n}}}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 2 || r.NextCursor != nil {
		t.Fatalf("list: %+v", r)
	}
	for _, s := range r.Sessions {
		if s.Title == nil || *s.Title != "about "+string(s.SessionId) || s.UpdatedAt == nil || s.Cwd == "" {
			t.Fatalf("entry %+v", s)
		}
		if _, err := time.Parse(time.RFC3339, *s.UpdatedAt); err != nil {
			t.Fatal(err)
		}
	}
	_, err = h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{Cursor: acp.Ptr("x")})
	rpcError(t, err, codeInvalidParams, "cursor")
}

func TestStdinEOFClosesEverySession(t *testing.T) {
	h := start(t, nil, true)
	id := h.newSession()
	h.mustPrompt(id, "one")
	h.mustPrompt(id, "/session new") // the first conversation stays in its mirror
	h.mustPrompt(id, "two")
	h.stop()
	for name, first := range map[string]string{"mcp-" + string(id): "one", "mcp-" + string(id) + "-2": "two"} {
		s, err := h.store.Load(name)
		if err != nil || len(s.History) != 2 || s.History[0].Content != first {
			t.Fatalf("mirror %s at exit: %+v %v", name, s, err)
		}
	}
	list, _ := h.store.List()
	var names []string
	for _, x := range list {
		names = append(names, x.Name)
	}
	if len(list) != 2 {
		t.Fatalf("sessions after exit: %v (want the two mirrors, nothing else)", names)
	}
}

func TestProviderFailureIsAnErrorAndThePromptIsKept(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"invalid api key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	p, err := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, p, true)
	id := h.newSession()
	_, _, err = h.prompt(id, "are you there")
	rpcError(t, err, codeInternal, "invalid api key")
	s, err := h.store.Load("mcp-" + string(id))
	if err != nil || len(s.History) != 1 || s.History[0].Meta == nil || !s.History[0].Meta.Unanswered {
		t.Fatalf("after a failed turn: %+v %v", s, err)
	}
}
