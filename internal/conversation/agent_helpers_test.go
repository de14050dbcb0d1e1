package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/session"
)

// dirToolbox is a small real toolbox for tests: list_files lists a
// folder under root, fail always fails, and wait blocks until its context
// ends (a command the user interrupts). before, when set, runs first on
// each call.
type dirToolbox struct {
	root   string
	mu     sync.Mutex
	calls  []message.ToolCall
	before func(message.ToolCall)
}

func (b *dirToolbox) Tools(mode string) []provider.Tool {
	return []provider.Tool{
		{Name: "list_files", Description: "List the files of a folder of the workspace.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "fail", Description: "Always fails."},
		{Name: "wait", Description: "Waits until interrupted."},
	}
}

func (b *dirToolbox) Run(ctx context.Context, mode string, c message.ToolCall) (string, bool) {
	b.mu.Lock()
	b.calls = append(b.calls, c)
	b.mu.Unlock()
	if b.before != nil {
		b.before(c)
	}
	switch c.Name {
	case "list_files":
		var args struct{ Path string }
		if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil {
			return "bad arguments: " + err.Error(), true
		}
		ents, err := os.ReadDir(filepath.Join(b.root, filepath.Clean("/"+args.Path)))
		if err != nil {
			return err.Error(), true
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return strings.Join(names, "\n"), false
	case "fail":
		return "error: this tool always fails", true
	case "wait":
		select {
		case <-ctx.Done():
			return "killed: " + context.Cause(ctx).Error(), true
		case <-time.After(5 * time.Second):
			return "waited", false
		}
	}
	return fmt.Sprintf("unknown tool %q", c.Name), true
}

// workspace is a temp folder holding a.txt and b.go.
func workspace(t *testing.T) string {
	dir := t.TempDir()
	for _, n := range []string{"a.txt", "b.go"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// agentFixture is an engine with a journal and the test toolbox.
func (f *fixture) agent(t *testing.T, p provider.Provider, box Toolbox, maxSteps int) (*Engine, *[]ToolActivity) {
	t.Helper()
	var acts []ToolActivity
	e := New(Options{Store: f.store, Provider: p, JournalDir: t.TempDir(), Toolbox: box, MaxSteps: maxSteps,
		Notify: func(s string) { f.notices = append(f.notices, s) },
		OnTool: func(a ToolActivity) { acts = append(acts, a) }})
	return e, &acts
}

// reloaded saves nothing: it loads session name and checks the sequence.
func reloaded(t *testing.T, st *session.Store, name string) []message.Message {
	t.Helper()
	s, err := st.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := message.Validate(s.History); err != nil {
		t.Fatalf("reloaded session fails the sequence check: %v", err)
	}
	return s.History
}

// wireServer is an httptest server that records request bodies and answers
// the n-th request (from 0) with reply(n, body).
type wireServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newWireServer(t *testing.T, path string, reply func(n int, body []byte, w http.ResponseWriter)) *wireServer {
	s := &wireServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			t.Errorf("request to %s, want %s", r.URL.Path, path)
			http.NotFound(w, r)
			return
		}
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, b)
		s.mu.Unlock()
		reply(n, b, w)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *wireServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// openaiSSE writes chat.completion.chunk events and [DONE].
func openaiSSE(w http.ResponseWriter, chunks ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		fmt.Fprintf(w, "data: %s\n\n", c)
		w.(http.Flusher).Flush()
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// oaChunk is one chat.completion.chunk with delta and finish_reason.
func oaChunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m",`+
		`"choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`, delta, fr)
}

// oaTool is a tool-call fragment: id and name only in the first one.
func oaTool(index int, id, name, args string) string {
	call := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		call["id"], call["type"] = id, "function"
		call["function"].(map[string]any)["name"] = name
	}
	b, _ := json.Marshal(map[string]any{"tool_calls": []any{call}})
	return oaChunk(string(b), "")
}

func oaText(s string) string {
	b, _ := json.Marshal(s)
	return oaChunk(`{"content":`+string(b)+`}`, "")
}

// anthropicSSE writes Messages API events: name and data pairs.
func anthropicSSE(w http.ResponseWriter, events ...[2]string) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	for _, e := range events {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e[0], e[1])
		w.(http.Flusher).Flush()
	}
}

func anStart() [2]string {
	return [2]string{"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",` +
		`"content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`}
}

func anToolStart(i int, id, name string) [2]string {
	return [2]string{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, id, name)}
}

func anTextStart(i int) [2]string {
	return [2]string{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i)}
}

func anJSON(i int, part string) [2]string {
	b, _ := json.Marshal(part)
	return [2]string{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, b)}
}

func anText(i int, s string) [2]string {
	b, _ := json.Marshal(s)
	return [2]string{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, b)}
}

func anStop(i int) [2]string {
	return [2]string{"content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i)}
}

func anEnd(reason string) [][2]string {
	return [][2]string{
		{"message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":5}}`, reason)},
		{"message_stop", `{"type":"message_stop"}`},
	}
}
