package conversation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/session"
)

type fixture struct {
	store   *session.Store
	notices []string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{store: st}
}

func (f *fixture) engine(p provider.Provider) *Engine {
	if p == nil {
		p = offline.New("")
	}
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	return New(Options{Store: f.store, Provider: p, Now: func() time.Time { return clock },
		Notify: func(s string) { f.notices = append(f.notices, s) }})
}

func turn(t *testing.T, e *Engine, prompt string) {
	t.Helper()
	if _, err := e.Turn(context.Background(), prompt, nil); err != nil {
		t.Fatal(err)
	}
}

func TestBoundTurnsAreWrittenThroughAndAdoptedAcrossEngines(t *testing.T) {
	f := newFixture(t)
	a, b := f.engine(nil), f.engine(nil)
	turn(t, a, "one")
	if err := a.Save("s", false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Attach("s"); err != nil {
		t.Fatal(err)
	}
	turn(t, a, "two") // written through by a
	turn(t, b, "three")
	s, err := f.store.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range s.History {
		if m.Role == message.RoleUser {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, ",") != "one,two,three" {
		t.Fatalf("b did not adopt a's turn before its own: %v", users)
	}
	if len(f.notices) == 0 || !strings.Contains(f.notices[0], "adopted") {
		t.Fatalf("adoption must be announced: %v", f.notices)
	}
}

func TestLoadNeverLosesTheLiveConversation(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "keep me")
	if err := f.store.Save("other", &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	autosaved, err := e.Load("other")
	if err != nil || !strings.HasPrefix(autosaved, "autosave-20261130-090000") {
		t.Fatalf("autosave %q %v", autosaved, err)
	}
	kept, err := f.store.Load(autosaved)
	if err != nil || kept.History[0].Content != "keep me" {
		t.Fatalf("autosaved conversation: %v", err)
	}
	// Loading again while bound needs no autosave: the bound file is current.
	if a, err := e.Load(autosaved); err != nil || a != "" {
		t.Fatalf("second load autosaved %q (%v)", a, err)
	}
	// A failed load changes nothing.
	if _, err := e.Load("missing"); !errors.Is(err, session.ErrNotFound) || e.Bound() != autosaved {
		t.Fatalf("failed load: %v, bound %q", err, e.Bound())
	}
}

func TestExitAutosaveRules(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	if name, _ := e.Close(true); name != "" {
		t.Fatal("an empty conversation must not be autosaved")
	}
	turn(t, e, "hi") // user + assistant: 2 non-system messages
	if name, _ := e.Close(false); name != "" {
		t.Fatal("autosave off must not save")
	}
	name, err := e.Close(true)
	if err != nil || name != "autosave-20261130-090000" {
		t.Fatalf("autosave %q %v", name, err)
	}
	e2 := f.engine(nil)
	turn(t, e2, "same second")
	if name2, _ := e2.Close(true); name2 != "autosave-20261130-090000-2" {
		t.Fatalf("second autosave in the same second: %q", name2)
	}
	e3 := f.engine(nil)
	turn(t, e3, "bound")
	e3.Save("named", false)
	if n, _ := e3.Close(true); n != "" {
		t.Fatal("a bound conversation is already saved")
	}
}

func TestDeleteOfActiveSessionClearsAndUnbinds(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "x")
	e.Save("active", false)
	cleared, err := e.Delete("active")
	if err != nil || !cleared || e.Bound() != "" || len(e.History()) != 0 || f.store.Exists("active") {
		t.Fatalf("delete active: cleared=%v err=%v bound=%q", cleared, err, e.Bound())
	}
}

func TestForkBindsToTheCopyAndLeavesTheOriginal(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "base")
	e.Save("orig", false)
	if err := e.Fork("copy"); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "only in copy")
	if err := e.Fork("copy2"); err != nil { // fork of a fork
		t.Fatal(err)
	}
	o, _ := f.store.Load("orig")
	c, _ := f.store.Load("copy")
	c2, _ := f.store.Load("copy2")
	if len(o.History) != 2 || len(c.History) != 4 || len(c2.History) != 4 || e.Bound() != "copy2" {
		t.Fatalf("orig %d copy %d copy2 %d bound %q", len(o.History), len(c.History), len(c2.History), e.Bound())
	}
}

// strictServer is a chat-completions server that rejects, like OpenAI,
// a request whose assistant tool call has no tool result, and answers
// "ok" otherwise. It fails with 500 while failing is true.
func strictServer(t *testing.T, failing *bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if *failing {
			w.WriteHeader(500)
			fmt.Fprint(w, `{"error":{"message":"upstream exploded","type":"server_error"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if err := strictCheck(body); err != "" {
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error"}}`, err)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func openaiClient(t *testing.T, url string) provider.Provider {
	c, err := openai.New(openai.Config{BaseURL: url, Model: "m", APIKey: "k", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestKilledMidToolCallIsRepairedBeforeSending(t *testing.T) { // case seq-1
	f := newFixture(t)
	broken := &session.Session{History: []message.Message{
		{Role: message.RoleUser, Content: "read main.go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "a", Type: "function", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
	}}
	if err := f.store.Save("s", broken); err != nil {
		t.Fatal(err)
	}
	failing := false
	e := f.engine(openaiClient(t, strictServer(t, &failing).URL))
	if _, err := e.Load("s"); err != nil {
		t.Fatal(err)
	}
	if len(f.notices) != 1 || !strings.Contains(f.notices[0], `tool call "a"`) {
		t.Fatalf("repair must be shown: %v", f.notices)
	}
	turn(t, e, "go on") // the strict server accepts it
	s, _ := f.store.Load("s")
	if err := message.Validate(s.History); err != nil {
		t.Fatal(err)
	}
	if m := s.History[2]; m.Role != message.RoleTool || m.ToolCallID != "a" || m.Meta == nil || m.Meta.Repair != message.RepairInterrupted {
		t.Fatalf("saved repair: %+v", m)
	}
}

func TestFailedTurnKeepsThePromptMarkedAndTheFileConsistent(t *testing.T) { // seq-3 and server errors
	f := newFixture(t)
	failing := true
	e := f.engine(openaiClient(t, strictServer(t, &failing).URL))
	if _, _, err := e.Attach("s"); err != nil {
		t.Fatal(err)
	}
	_, err := e.Turn(context.Background(), "A", nil)
	var perr *provider.Error
	if !errors.As(err, &perr) || perr.Kind != provider.KindServer || strings.Contains(err.Error(), "\n") {
		t.Fatalf("want one-line server error, got %v", err)
	}
	s, _ := f.store.Load("s")
	if len(s.History) != 1 || s.History[0].Content != "A" || !s.History[0].Meta.Unanswered {
		t.Fatalf("unanswered prompt not kept and marked: %+v", s.History)
	}
	failing = false
	turn(t, e, "B") // the strict server also refuses nothing: no two users in a row are sent
	s, _ = f.store.Load("s")
	var texts []string
	for _, m := range s.History {
		texts = append(texts, m.Content)
	}
	if strings.Join(texts, "|") != "A|B|ok" {
		t.Fatalf("saved %v", texts)
	}
}

func TestWriteThroughNeverReplacesAnUnreadableFile(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.Save("s", false)
	p, _ := f.store.Path("s")
	os.WriteFile(p, []byte(`{"version":2,"chat_his`), 0o600)
	_, err := e.Turn(context.Background(), "x", nil)
	if !errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("want ErrCorrupt, got %v", err)
	}
	data, _ := os.ReadFile(p)
	if string(data) != `{"version":2,"chat_his` {
		t.Fatal("unreadable file was overwritten")
	}
}
