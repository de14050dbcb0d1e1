package anthropic

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

// fakeServer is an httptest server on 127.0.0.1 speaking the Messages API
// wire format. It records every request and fails the test if it was never
// hit. Like the real API it answers 400 to a request that breaks the
// conversation rules (providertest.CheckAnthropic).
type fakeServer struct {
	*httptest.Server
	t        *testing.T
	mu       sync.Mutex
	requests []wireRequest
	headers  []http.Header
}

// wireRequest is the part of a Messages request body the tests check.
type wireRequest struct {
	Model      string          `json:"model"`
	MaxTokens  int             `json:"max_tokens"`
	Stream     bool            `json:"stream"`
	System     json.RawMessage `json:"system"`
	Messages   []wireMessage   `json:"messages"`
	Tools      []wireTool      `json:"tools"`
	ToolChoice map[string]any  `json:"tool_choice"`
}

type wireTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   *bool           `json:"is_error"`
	Content   []wireBlock     `json:"content"`
	Source    map[string]any  `json:"source"`
}

// blocks returns the content blocks; a plain string is one text block.
func (m wireMessage) blocks() []wireBlock {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []wireBlock{{Type: "text", Text: &s}}
	}
	var b []wireBlock
	_ = json.Unmarshal(m.Content, &b)
	return b
}

// systemText returns the system parameter as text (string or text blocks).
func (r wireRequest) systemText() string {
	var s string
	if json.Unmarshal(r.System, &s) == nil {
		return s
	}
	var blocks []wireBlock
	_ = json.Unmarshal(r.System, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Text != nil {
			parts = append(parts, *b.Text)
		}
	}
	return strings.Join(parts, "|")
}

func newFake(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			apiError(w, http.StatusNotFound, "not_found_error", "Not Found")
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
		if msg := providertest.CheckAnthropic(body); msg != "" {
			apiError(w, http.StatusBadRequest, "invalid_request_error", msg)
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

// header returns the headers of request i.
func (f *fakeServer) header(i int) http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.headers[i]
}

// request returns request i.
func (f *fakeServer) request(i int) wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[i]
}

func (f *fakeServer) last() wireRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		f.t.Fatal("no request received")
	}
	return f.requests[len(f.requests)-1]
}

// apiError writes an error response in the Anthropic shape.
func apiError(w http.ResponseWriter, status int, typ, msg string) {
	providertest.AnthropicError(w, status, typ, msg)
}

// event is one server-sent event: its name and JSON data.
type event struct{ name, data string }

// sse writes "event: <name>\ndata: <json>\n\n" for each event, flushing
// after each, with the headers a real server sends.
func sse(w http.ResponseWriter, events ...event) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
	}
	for _, e := range events {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
		w.(http.Flusher).Flush()
	}
}

func messageStart(inputTokens int) event {
	return event{"message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant",`+
		`"content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,`+
		`"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`, inputTokens)}
}

func textStart(index int) event {
	return event{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index)}
}

func toolStart(index int, id, name string) event {
	return event{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, index, id, name)}
}

func textDelta(index int, s string) event {
	b, _ := json.Marshal(s)
	return event{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, index, b)}
}

func jsonDelta(index int, partial string) event {
	b, _ := json.Marshal(partial)
	return event{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, b)}
}

func blockStop(index int) event {
	return event{"content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)}
}

func messageDelta(stop string, outputTokens int) event {
	return event{"message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, outputTokens)}
}

var (
	ping        = event{"ping", `{"type": "ping"}`}
	messageStop = event{"message_stop", `{"type":"message_stop"}`}
)

func errorEvent(typ, msg string) event {
	return event{"error", fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q}}`, typ, msg)}
}

// textReply is a complete stream answering with the given text pieces.
func textReply(pieces ...string) []event {
	evs := []event{messageStart(10), textStart(0)}
	for _, p := range pieces {
		evs = append(evs, textDelta(0, p))
	}
	return append(evs, blockStop(0), messageDelta("end_turn", 3), messageStop)
}

// cut flushes what was written and closes the connection without ending the
// chunked body.
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
	return "http://" + addr
}

// stall blocks until the client goes away or the test times out.
func stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}
