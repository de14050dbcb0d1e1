package acpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/tools"
)

// permissionClient answers session/request_permission with the next
// option id of answers and records the requests.
type permissionClient struct {
	testClient
	mu       sync.Mutex
	answers  []acp.PermissionOptionId
	requests []acp.RequestPermissionRequest
}

func (c *permissionClient) RequestPermission(_ context.Context, r acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, r)
	a := c.answers[0]
	c.answers = c.answers[1:]
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(a)}, nil
}

// writeFileServer streams a write_file call of a.txt for a prompt, then a
// final answer once the tool result is in.
func writeFileServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Messages []struct{ Role string } }
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "text/event-stream")
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			sseChunk(w, map[string]any{"role": "assistant", "content": "done"}, "stop")
		} else {
			sseChunk(w, map[string]any{"role": "assistant", "tool_calls": []map[string]any{{"index": 0, "id": "call_1", "type": "function",
				"function": map[string]any{"name": "write_file", "arguments": `{"path":"a.txt","content":"hi\n"}`}}}}, nil)
			sseChunk(w, map[string]any{}, "tool_calls")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// coderHarness serves ACP in lang with engines whose tools work in ws and
// ask the editor, a permissionClient giving answers, through a
// repl.Permit in lang.
func coderHarness(t *testing.T, lang *i18n.Printer, answers ...acp.PermissionOptionId) (h *harness, pc *permissionClient, ws string) {
	home, ws := t.TempDir(), t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := openai.New(openai.Config{Model: "m", BaseURL: writeFileServer(t).URL + "/v1", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var srv *Server
	srv = New(Options{NewEngine: func(string) (*conversation.Engine, error) {
		permit := repl.NewPermit(srv.Ask, io.Discard)
		permit.SetLang(lang)
		box, err := tools.New(tools.Options{Root: ws, Permit: func(ctx context.Context, a tools.Action) (tools.Decision, error) {
			ans, err := permit.Ask(ctx, a.Summary)
			return map[repl.Permission]tools.Decision{repl.PermissionYes: tools.DecisionYes, repl.PermissionAlways: tools.DecisionAlways}[ans], err
		}})
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { box.Close() })
		return conversation.New(conversation.Options{Store: st, Provider: p, Toolbox: box, JournalDir: filepath.Join(home, "transcripts")}), nil
	}, WorkDir: home, Lang: lang})
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), toAgentR, toClientW) }()
	t.Cleanup(func() { toAgentW.Close(); <-served; toClientW.Close() })
	pc = &permissionClient{answers: answers}
	h = &harness{t: t, conn: acp.NewClientSideConnection(pc, toAgentW, toClientR)}
	if _, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	h.client = &pc.testClient
	return h, pc, ws
}

// In coder mode a write is asked of the editor by
// session/request_permission on the prompt's session: reject leaves the
// file alone, allow writes it.
func TestCoderWriteAsksTheEditor(t *testing.T) {
	h, pc, ws := coderHarness(t, nil, optionReject, optionAllowOnce)
	id := h.newSession()
	h.mustPrompt(id, "/coder")
	h.mustPrompt(id, "write it")
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); !os.IsNotExist(err) {
		t.Fatalf("a.txt after a rejected write: %v", err)
	}
	if r, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("write it")}}); err != nil || r.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("allowed write: %+v %v", r, err)
	}
	// The editor saw the tool call live: started, then completed.
	var started, completed bool
	for _, u := range h.client.take() {
		if c := u.Update.ToolCall; c != nil && c.Title == "write_file" && c.Kind == acp.ToolKindEdit && c.Status == acp.ToolCallStatusInProgress {
			started = true
		}
		if c := u.Update.ToolCallUpdate; c != nil && started && c.Status != nil && *c.Status == acp.ToolCallStatusCompleted {
			completed = true
		}
	}
	if !started || !completed {
		t.Fatalf("tool call updates during the prompt: started %v, completed %v", started, completed)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "a.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("a.txt after an allowed write: %q %v", b, err)
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.requests) != 2 {
		t.Fatalf("want 2 permission requests, got %d", len(pc.requests))
	}
	r := pc.requests[0]
	if r.SessionId != id || r.ToolCall.Title == nil || *r.ToolCall.Title != "Allow write a.txt (3 B, new file)" || len(r.Options) != 3 {
		t.Fatalf("request %+v (title %q)", r, *r.ToolCall.Title)
	}
	if names := optionNames(r); names != "Allow|Always allow for this session|Reject" {
		t.Fatalf("options %s", names)
	}
}

// In Portuguese the editor is asked the REPL's Portuguese question, its
// options named in Portuguese; the answer still counts.
func TestPermissionRequestsSpeakTheServersLanguage(t *testing.T) {
	h, pc, ws := coderHarness(t, i18n.New(i18n.Portuguese), optionAllowOnce)
	id := h.newSession()
	h.mustPrompt(id, "/coder")
	h.mustPrompt(id, "write it")
	if b, err := os.ReadFile(filepath.Join(ws, "a.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("a.txt after an allowed write: %q %v", b, err)
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.requests) != 1 {
		t.Fatalf("want 1 permission request, got %d", len(pc.requests))
	}
	r := pc.requests[0]
	if r.ToolCall.Title == nil || *r.ToolCall.Title != "Permitir write a.txt (3 B, new file)" {
		t.Fatalf("title %v", r.ToolCall.Title)
	}
	if names := optionNames(r); names != "Permitir|Sempre permitir nesta sessão|Recusar" {
		t.Fatalf("options %s", names)
	}
}

// optionNames joins the names of a permission request's options.
func optionNames(r acp.RequestPermissionRequest) string {
	var names []string
	for _, o := range r.Options {
		names = append(names, o.Name)
	}
	return strings.Join(names, "|")
}

// Outside a prompt there is no thread to ask: Ask refuses.
func TestAskOutsideAPromptRefuses(t *testing.T) {
	if _, err := New(Options{}).Ask(context.Background(), "Allow x? [y]es"); err != errNoPrompt {
		t.Fatalf("got %v", err)
	}
}
