package compact

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/openai"
)

// chatServer is an httptest server speaking the chat-completions wire
// format with SSE streaming; reply answers each request after it has been
// recorded. The test fails if the server was never hit.
type chatServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	reqs   []wireRequest
}

type wireRequest struct {
	Model     string `json:"model"`
	Stream    bool   `json:"stream"`
	MaxTokens *int   `json:"max_tokens"`
	Messages  []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func newChatServer(t testing.TB, reply func(w http.ResponseWriter, r *http.Request)) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req wireRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies, s.reqs = append(s.bodies, body), append(s.reqs, req)
		s.mu.Unlock()
		reply(w, r)
	}))
	t.Cleanup(func() {
		s.Close()
		if s.hits() == 0 {
			t.Errorf("chat server was never hit")
		}
	})
	return s
}

func (s *chatServer) hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

func (s *chatServer) request(i int) (wireRequest, []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[i], s.bodies[i]
}

func (s *chatServer) client(t testing.TB) provider.Provider {
	t.Helper()
	c, err := openai.New(openai.Config{BaseURL: s.URL + "/v1", Model: "m", APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sse streams text as content chunks split at n bytes, then the end of the
// reply, flushing after each event.
func sse(w http.ResponseWriter, text string, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	for i := 0; i < len(text); {
		j := min(i+n, len(text))
		for j < len(text) && !utf8.RuneStart(text[j]) {
			j++
		}
		event(w, textChunk(text[i:j]))
		i = j
	}
	event(w, `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	event(w, "[DONE]")
}

func event(w http.ResponseWriter, data string) {
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func textChunk(s string) string {
	b, _ := json.Marshal(s)
	return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":` +
		string(b) + `},"finish_reason":null}]}`
}
