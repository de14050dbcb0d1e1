package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
)

const mirror1 = "mcp-" + testID

func TestToolsAreListedWithTypedSchemas(t *testing.T) {
	f := newFixture(t, setup{})
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]map[string]any{}
	for _, tool := range res.Tools {
		data, _ := json.Marshal(tool.InputSchema)
		var m map[string]any
		json.Unmarshal(data, &m)
		schemas[tool.Name] = m
		if tool.Description == "" || tool.OutputSchema == nil {
			t.Errorf("tool %s lacks a description or an output schema", tool.Name)
		}
	}
	if len(schemas) != 5 || schemas["chat"] == nil || schemas["manage_session"] == nil || schemas["ask_chatcli"] == nil ||
		schemas["agent_task"] == nil || schemas["coder_task"] == nil {
		t.Fatalf("tools: %v", schemas)
	}
	if req := fmt.Sprint(schemas["chat"]["required"]); req != "[prompt]" {
		t.Fatalf("chat requires %s", req)
	}
	props := schemas["manage_session"]["properties"].(map[string]any)
	var enum []string
	for _, v := range props["action"].(map[string]any)["enum"].([]any) {
		enum = append(enum, v.(string))
	}
	want := []string{"save", "load", "list", "delete", "new", "fork", "rename", "attach", "detach", "status", "clear", "export", "search"}
	if !slices.Equal(enum, want) {
		t.Fatalf("action enum %v", enum)
	}
	if fmt.Sprint(props["format"].(map[string]any)["enum"]) != "[md jsonl]" || props["yes"].(map[string]any)["type"] != "boolean" {
		t.Fatalf("format/yes: %v", props)
	}
	if req := fmt.Sprint(schemas["manage_session"]["required"]); req != "[action]" {
		t.Fatalf("manage_session requires %s", req)
	}
}

func TestChatRunsTurnsAndMirrorsEachOne(t *testing.T) {
	f := newFixture(t, setup{})
	out := f.chat(map[string]any{"prompt": "hello"})
	if out.Reply != "[offline] reply #1 to: hello" || out.Session != mirror1 || out.Bound || out.Messages != 2 {
		t.Fatalf("first turn: %+v", out)
	}
	if got := f.users(mirror1); got != "hello" {
		t.Fatalf("mirror after one turn: %q", got)
	}
	out = f.chat(map[string]any{"prompt": "again"})
	if out.Reply != "[offline] reply #2 to: again" || out.Messages != 4 || f.users(mirror1) != "hello,again" {
		t.Fatalf("second turn: %+v, mirror %q", out, f.users(mirror1))
	}
	if f.names() != mirror1 || !slices.Equal(f.mirrors, []string{mirror1}) {
		t.Fatalf("sessions %q, marked %v", f.names(), f.mirrors)
	}
	// A journal is kept under the mirror, as under every conversation.
	s, _ := f.store.Load(mirror1)
	if s.TranscriptID == "" {
		t.Fatal("the mirror names no journal")
	}
	if _, err := os.Stat(f.home + "/transcripts/" + s.TranscriptID + ".jsonl"); err != nil {
		t.Fatal(err)
	}
}

func TestMirrorOffKeepsNothingUnbound(t *testing.T) {
	f := newFixture(t, setup{noMirror: true})
	out := f.chat(map[string]any{"prompt": "hello"})
	if out.Session != "" || f.names() != "" {
		t.Fatalf("mirror off: %+v, sessions %q", out, f.names())
	}
	// A named session is still written through.
	out = f.chat(map[string]any{"prompt": "two", "session": "kept"})
	if !out.Bound || out.Session != "kept" || f.users("kept") != "hello,two" || f.names() != "kept" {
		t.Fatalf("bound with mirror off: %+v, %q", out, f.names())
	}
}

func TestChatOnANamedSessionWritesThroughAndAdoptsOtherSurfaces(t *testing.T) {
	f := newFixture(t, setup{})
	out := f.chat(map[string]any{"prompt": "one", "session": "shared"})
	if !out.Bound || out.Session != "shared" || f.users("shared") != "one" || f.names() != "shared" {
		t.Fatalf("bound turn: %+v, sessions %q", out, f.names())
	}
	// Another surface (chatcli -p --session shared) adds a turn.
	other := f.engine(offline.New(""))
	if _, _, err := other.Attach("shared"); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Turn(context.Background(), "from the terminal", nil); err != nil {
		t.Fatal(err)
	}
	out = f.chat(map[string]any{"prompt": "three", "session": "shared"})
	if got := f.users("shared"); got != "one,from the terminal,three" || out.Messages != 6 || out.Reply != "[offline] reply #3 to: three" {
		t.Fatalf("after another surface's turn: %q, %+v", got, out)
	}
	if len(out.Notices) != 1 || !strings.Contains(out.Notices[0], `session "shared": took in 2 messages written in another window`) {
		t.Fatalf("the client is not told of the adoption: %q", out.Notices)
	}
	// Without session the bound conversation continues.
	f.chat(map[string]any{"prompt": "four"})
	if got := f.users("shared"); got != "one,from the terminal,three,four" {
		t.Fatalf("unnamed turn while bound: %q", got)
	}
}

func TestChatErrorsAreToolErrors(t *testing.T) {
	f := newFixture(t, setup{})
	f.fails("chat", map[string]any{"prompt": "  "}, "prompt is empty")
	f.fails("chat", map[string]any{"prompt": "x", "session": "../x"}, "../x")
	f.fails("chat", map[string]any{"prompt": "x", "session": "mcp-mine"}, "reserved", "mcp-")
	f.fails("chat", map[string]any{}, "prompt")
	if f.names() != "" {
		t.Fatalf("failed calls wrote %q", f.names())
	}
	// The server is still serving.
	if out := f.chat(map[string]any{"prompt": "still here"}); out.Messages != 2 {
		t.Fatalf("after errors: %+v", out)
	}
}

func TestAReplyThatCannotBeMirroredIsKeptAndReported(t *testing.T) {
	f := newFixture(t, setup{})
	p, _ := f.store.Path(mirror1)
	cut := []byte(`{"version":2,"chat_history":[`)
	if err := os.WriteFile(p, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	f.notSaved(map[string]any{"prompt": "hello"}, p)
	if after, _ := os.ReadFile(p); string(after) != string(cut) {
		t.Fatal("the cut file was changed")
	}
	// Saving it by name still works: nothing was lost.
	f.manage(map[string]any{"action": "save", "name": "rescued"})
	if f.users("rescued") != "hello" {
		t.Fatalf("rescued: %q", f.users("rescued"))
	}
}

// openAIServer speaks the chat-completions streaming wire format: it
// replies "echo: <last user message>" in two chunks, or fails with status
// 500 when fail is set.
func openAIServer(t *testing.T, fail *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"no route"}}`, 404)
			return
		}
		if fail.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			fmt.Fprint(w, `{"error":{"message":"the model is overloaded","type":"server_error"}}`)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if !req.Stream {
			http.Error(w, `{"error":{"message":"want stream"}}`, 400)
			return
		}
		text := fmt.Sprintf("echo: %v", req.Messages[len(req.Messages)-1].Content)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, part := range []string{text[:3], text[3:]} {
			chunk, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
				"choices": []map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": part}}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
			w.(http.Flusher).Flush()
		}
		fin, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", fin)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestChatThroughAnOpenAICompatibleServer(t *testing.T) {
	var fail atomic.Bool
	srv := openAIServer(t, &fail)
	p, err := openai.New(openai.Config{APIKey: "k", Model: "test-model", BaseURL: srv.URL + "/v1", Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, setup{provider: p})
	if out := f.chat(map[string]any{"prompt": "ping"}); out.Reply != "echo: ping" || out.Session != mirror1 {
		t.Fatalf("streamed turn: %+v", out)
	}
	fail.Store(true)
	f.fails("chat", map[string]any{"prompt": "lost?"}, "overloaded")
	// The failed prompt is kept, marked unanswered, in the mirror.
	s, err := f.store.Load(mirror1)
	if err != nil || len(s.History) != 3 || s.History[2].Content != "lost?" || s.History[2].Meta == nil || !s.History[2].Meta.Unanswered {
		t.Fatalf("mirror after a provider failure: %+v %v", s, err)
	}
	fail.Store(false)
	// The unanswered prompt is not sent again: one failure never makes
	// the next prompt fail too.
	if out := f.chat(map[string]any{"prompt": "back"}); out.Reply != "echo: back" {
		t.Fatalf("after recovery: %+v", out)
	}
}

// TestCancelledChatKeepsThePromptAndTheServerServes cancels a call whose
// request hangs at the provider: the MCP cancellation reaches the turn,
// the prompt stays (unanswered) in the mirror, and the next call works.
func TestCancelledChatKeepsThePromptAndTheServerServes(t *testing.T) {
	arrived := make(chan struct{}, 1)
	var hang, aborted atomic.Bool
	hang.Store(true)
	var fail atomic.Bool
	echo := openAIServer(t, &fail)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			io.Copy(io.Discard, r.Body) // so that a closed connection is noticed
			arrived <- struct{}{}
			select {
			case <-r.Context().Done():
				aborted.Store(true)
			case <-time.After(5 * time.Second): // never hold the test up
			}
			return
		}
		echo.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{APIKey: "k", Model: "m", BaseURL: srv.URL + "/v1", Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, setup{provider: p})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	if _, err := f.cs.CallTool(ctx, &mcp.CallToolParams{Name: "chat", Arguments: map[string]any{"prompt": "slow one"}}); err == nil {
		t.Fatal("a cancelled call returned no error")
	}
	hang.Store(false)
	out := f.chat(map[string]any{"prompt": "next"})
	if !aborted.Load() {
		t.Fatal("the cancellation did not reach the provider's request")
	}
	if out.Reply != "echo: next" {
		t.Fatalf("after the cancelled call: %+v", out)
	}
	// The history keeps both prompts (the request sends the newer one).
	if got := f.users(mirror1); got != "slow one,next" {
		t.Fatalf("mirror: %q", got)
	}
}

// TestConcurrentCallsAreServedOneAtATime sends several calls at once: each
// is answered, and the conversation holds every turn exactly once.
func TestConcurrentCallsAreServedOneAtATime(t *testing.T) {
	f := newFixture(t, setup{})
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			name, args := "chat", map[string]any{"prompt": fmt.Sprintf("p%d", i)}
			if i%2 == 1 {
				name, args = "manage_session", map[string]any{"action": "status"}
			}
			res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
			if err == nil && res.IsError {
				err = fmt.Errorf("%s: %s", name, text(res))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(f.users(mirror1), "p"); got != 4 {
		t.Fatalf("mirror holds %d prompts: %q", got, f.users(mirror1))
	}
}
