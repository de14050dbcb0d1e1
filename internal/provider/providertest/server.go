package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the reply's text, streamed in a few pieces.
	Text string
	// ToolCalls are the calls the reply makes (id, name, arguments).
	ToolCalls []message.ToolCall
	// Reasoning is sent as reasoning_content deltas (OpenAI format) or as
	// a thinking block before the text (Anthropic).
	Reasoning string
	// Status, when not 0, makes the reply an error response with that
	// HTTP status, ErrType and ErrMessage, in the format's error body.
	Status     int
	ErrType    string
	ErrMessage string
	// RetryAfter, when not "", is the error response's Retry-After header.
	RetryAfter string
}

// Server is a strict fake. Its fields other than the embedded server are
// read through its methods, which are safe while requests are served.
type Server struct {
	*httptest.Server
	// MaxPromptBytes, when not 0, makes the server refuse with the
	// format's context-length error a request body longer than this: a
	// model window measured in bytes.
	MaxPromptBytes int
	// Thinking makes the OpenAI fake behave like DeepSeek's thinking mode:
	// reasoning_content must be sent back on the assistant tool-call
	// messages of the current turn.
	Thinking bool

	mu       sync.Mutex
	replies  []Reply
	bodies   [][]byte
	refusals []string
	accepted int
}

// newServer starts s on 127.0.0.1 with handle as the format's handler and
// fails t when no request reached it. With bearer, a request without an
// "Authorization: Bearer <key>" header is refused with 401 before it is
// recorded.
func newServer(t testing.TB, replies []Reply, path string, bearer bool, check func(*Server, []byte) (int, string, string),
	write func(http.ResponseWriter, Reply, int), writeErr func(http.ResponseWriter, int, string, string)) *Server {
	t.Helper()
	s := &Server{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != path {
			writeErr(w, http.StatusNotFound, "not_found_error", "Not Found")
			return
		}
		if key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); bearer && (!ok || strings.TrimSpace(key) == "") {
			writeErr(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.")
			return
		}
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		if status, typ, msg := check(s, body); status != 0 {
			s.mu.Lock()
			s.refusals = append(s.refusals, msg)
			s.mu.Unlock()
			writeErr(w, status, typ, msg)
			return
		}
		rep := s.next()
		if rep.Status != 0 {
			if rep.RetryAfter != "" {
				w.Header().Set("Retry-After", rep.RetryAfter)
			}
			writeErr(w, rep.Status, rep.ErrType, rep.ErrMessage)
			return
		}
		write(w, rep, PromptTokens(body))
	}))
	t.Cleanup(func() {
		s.Close()
		if s.Requests() == 0 {
			t.Errorf("fake %s server was never hit", path)
		}
	})
	return s
}

// PromptTokens is the prompt size the fakes report in their usage and
// measure MaxPromptBytes against: a token per 4 bytes of request body.
func PromptTokens(body []byte) int { return len(body)/4 + 1 }

// next takes the next scripted reply; the last one repeats.
func (s *Server) next() Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accepted++
	if len(s.replies) == 0 {
		return Reply{Text: "ok"}
	}
	r := s.replies[0]
	if len(s.replies) > 1 {
		s.replies = s.replies[1:]
	}
	return r
}

// Requests is how many requests reached the server.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Body returns the body of request i (0 is the first).
func (s *Server) Body(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

// Refusals are the error messages of the requests refused as invalid, in
// order.
func (s *Server) Refusals() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refusals...)
}

// decode unmarshals a request body; a body that is not JSON is a bug of the
// client under test, reported as the refusal text.
func decode(body []byte, v any) string {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Sprintf("We could not parse the JSON body of your request: %v", err)
	}
	return ""
}

// flushSSE writes one server-sent event (name may be "") and flushes.
func flushSSE(w http.ResponseWriter, name, data string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
	}
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

// pieces splits s into up to three parts, so text arrives as several
// deltas.
func pieces(s string) []string {
	r := []rune(s)
	if len(r) < 3 {
		return []string{s}
	}
	a, b := len(r)/3, 2*len(r)/3
	return []string{string(r[:a]), string(r[a:b]), string(r[b:])}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
