package acpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/session"
)

// testClient is the editor side: it records every session/update.
type testClient struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
	// chunk, when set, hears each agent text chunk as it arrives.
	chunk chan string
}

var _ acp.Client = (*testClient)(nil)

func (c *testClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.mu.Unlock()
	if c.chunk != nil && n.Update.AgentMessageChunk != nil {
		c.chunk <- n.Update.AgentMessageChunk.Content.Text.Text
	}
	return nil
}

// take returns and forgets the updates received so far.
func (c *testClient) take() []acp.SessionNotification {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.updates
	c.updates = nil
	return u
}

// text joins the agent text chunks of updates for session id.
func agentText(updates []acp.SessionNotification, id acp.SessionId) (string, int) {
	var b strings.Builder
	n := 0
	for _, u := range updates {
		if u.SessionId == id && u.Update.AgentMessageChunk != nil {
			b.WriteString(u.Update.AgentMessageChunk.Content.Text.Text)
			n++
		}
	}
	return b.String(), n
}

var errNoClientMethod = errors.New("not offered by the test client")

func (c *testClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNoClientMethod
}
func (c *testClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errNoClientMethod
}
func (c *testClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{}, errNoClientMethod
}
func (c *testClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNoClientMethod
}
func (c *testClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNoClientMethod
}
func (c *testClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNoClientMethod
}
func (c *testClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNoClientMethod
}
func (c *testClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNoClientMethod
}

// harness is a server and an SDK client connected by two pipes.
type harness struct {
	t       *testing.T
	client  *testClient
	conn    *acp.ClientSideConnection
	store   *session.Store
	notices *strings.Builder
	stop    func() // closes the client's output (the server's stdin) and waits for Serve
}

// start serves ACP with engines on a fresh store and provider p (nil:
// offline). mirror sets Options.Mirror.
func start(t *testing.T, p provider.Provider, mirror bool) *harness {
	t.Helper()
	return startWith(t, p, mirror, nil)
}

// startWith is start with the server's options changed by set first
// (nil: as newServer makes them).
func startWith(t *testing.T, p provider.Provider, mirror bool, set func(*Options)) *harness {
	t.Helper()
	srv, st, notices := newServer(t, p, mirror)
	if set != nil {
		set(&srv.o)
	}
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), toAgentR, toClientW) }()
	tc := &testClient{}
	h := &harness{t: t, client: tc, conn: acp.NewClientSideConnection(tc, toAgentW, toClientR), store: st, notices: notices}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			toAgentW.Close()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("serve: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Error("Serve did not return after stdin closed")
			}
			toClientW.Close()
		})
	}
	t.Cleanup(h.stop)
	if _, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	return h
}

// newServer returns a server whose engines work on a fresh store with
// provider p (nil: offline), and the builder its notices go to.
func newServer(t *testing.T, p provider.Provider, mirror bool) (*Server, *session.Store, *strings.Builder) {
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if p == nil {
		p = offline.New("")
	}
	var mu sync.Mutex
	notices := &strings.Builder{}
	n := 0
	srv := New(Options{
		NewEngine: func(string) (*conversation.Engine, error) {
			return conversation.New(conversation.Options{Store: st, Provider: p, JournalDir: filepath.Join(home, "transcripts")}), nil
		},
		Mirror: mirror,
		Notify: func(s string) { mu.Lock(); fmt.Fprintln(notices, s); mu.Unlock() },
		NewID: func() string {
			mu.Lock()
			defer mu.Unlock()
			n++
			return fmt.Sprintf("s%d", n)
		},
		WorkDir: home,
	})
	return srv, st, notices
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func (h *harness) newSession() acp.SessionId {
	h.t.Helper()
	r, err := h.conn.NewSession(ctx(h.t), acp.NewSessionRequest{Cwd: "/tmp", McpServers: []acp.McpServer{}})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.SessionId
}

// prompt sends text and returns the stop reason and the streamed text.
func (h *harness) prompt(id acp.SessionId, text string) (acp.StopReason, string, error) {
	h.t.Helper()
	r, err := h.conn.Prompt(ctx(h.t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	got, _ := agentText(h.client.take(), id)
	return r.StopReason, got, err
}

// mustPrompt is prompt that must end with end_turn.
func (h *harness) mustPrompt(id acp.SessionId, text string) string {
	h.t.Helper()
	stop, got, err := h.prompt(id, text)
	if err != nil || stop != acp.StopReasonEndTurn {
		h.t.Fatalf("prompt %q: stop %q, err %v", text, stop, err)
	}
	return got
}

// rpcError asserts err is a JSON-RPC error with code and a reason holding
// want.
func rpcError(t *testing.T, err error, code int, want string) {
	t.Helper()
	var re *acp.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("want JSON-RPC error %d, got %v", code, err)
	}
	data, _ := json.Marshal(re.Data)
	var d struct{ Reason string }
	json.Unmarshal(data, &d)
	if re.Code != code || !strings.Contains(d.Reason, want) || !strings.Contains(re.Message, want) {
		t.Fatalf("want code %d with reason containing %q, got %d %q data %s", code, want, re.Code, re.Message, data)
	}
}

// sseChunk writes one chat-completions stream chunk.
func sseChunk(w io.Writer, delta map[string]any, finish any) {
	b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
		"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// chatServer speaks the streaming chat-completions wire format. It replies
// "echo: <last user text>" in two chunks; when stall is set, it sends the
// first chunk and then waits for the client to go away.
func chatServer(t *testing.T, stall bool) provider.Provider {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		text := fmt.Sprintf("echo: %v", req.Messages[len(req.Messages)-1].Content)
		w.Header().Set("Content-Type", "text/event-stream")
		sseChunk(w, map[string]any{"role": "assistant", "content": text[:3]}, nil)
		if stall {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		sseChunk(w, map[string]any{"content": text[3:]}, nil)
		sseChunk(w, map[string]any{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
