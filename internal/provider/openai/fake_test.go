package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// fakeServer is an httptest server on 127.0.0.1 speaking the
// chat-completions wire format. It records every request and fails the test
// if it was never hit. Like the real API it rejects (400) a history in which
// an assistant tool call has no tool message after it.
type fakeServer struct {
	*httptest.Server
	t        *testing.T
	mu       sync.Mutex
	requests []wireRequest
	headers  []http.Header
}

// wireRequest is the part of a chat-completions request body the tests check.
type wireRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           *int          `json:"max_tokens"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	Messages            []wireMessage `json:"messages"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// text returns the content when it is a plain string.
func (m wireMessage) text() string {
	var s string
	_ = json.Unmarshal(m.Content, &s)
	return s
}

// newFake starts a server whose valid requests are answered by reply.
func newFake(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req wireRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request body is not JSON: %v\n%s", err, body)
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		if msg := providertest.CheckOpenAI(body, false); msg != "" {
			apiError(w, http.StatusBadRequest, msg, "invalid_request_error")
			return
		}
		reply(w, r)
	}))
	t.Cleanup(func() {
		f.Close()
		if f.hits() == 0 {
			t.Errorf("fake server was never hit")
		}
	})
	return f
}

func (f *fakeServer) hits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// last returns the last request received.
// header returns the headers of request i.
func (f *fakeServer) header(i int) http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.headers[i]
}

func (f *fakeServer) last() wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		f.t.Fatal("no request received")
	}
	return f.requests[len(f.requests)-1]
}

// url is the base URL a client should use.
func (f *fakeServer) url() string { return f.URL + "/v1" }

// apiError writes an error response in the OpenAI shape.
func apiError(w http.ResponseWriter, status int, msg, typ string) {
	providertest.OpenAIError(w, status, typ, msg)
}

// sse writes each event as "data: <event>\n\n" and flushes after each, with
// the headers a real server sends.
func sse(w http.ResponseWriter, events ...string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
	}
	for _, e := range events {
		fmt.Fprintf(w, "data: %s\n\n", e)
		w.(http.Flusher).Flush()
	}
}

const done = "[DONE]"

// chunk renders one chat.completion.chunk with the given delta JSON and
// finish_reason ("" for null).
func chunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"test-model",`+
		`"choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`, delta, fr)
}

func textChunk(s string) string {
	b, _ := json.Marshal(s)
	return chunk(`{"content":`+string(b)+`}`, "")
}

// toolChunk is a tool-call fragment; id and name are sent only when not empty
// (the first fragment of a call), args is the next piece of the arguments.
func toolChunk(index int, id, name, args string) string {
	call := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		call["id"], call["type"] = id, "function"
		call["function"].(map[string]any)["name"] = name
	}
	b, _ := json.Marshal(map[string]any{"tool_calls": []any{call}})
	return chunk(string(b), "")
}

func usageChunk(prompt, completion int) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"test-model",`+
		`"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, prompt, completion, prompt+completion)
}

// cut flushes what was written and closes the connection without ending the
// chunked body, as a crashed server or a dropped proxy would.
func cut(t *testing.T, w http.ResponseWriter) {
	w.(http.Flusher).Flush()
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	conn.Close()
}

// closedURL returns a base URL on 127.0.0.1 where nothing listens.
func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// stall blocks until the client goes away or the test times out.
func stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// oneLine fails the test when s spans lines.
func oneLine(t *testing.T, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\r\n") {
		t.Errorf("error text spans lines: %q", s)
	}
}
