package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/session"
)

// fixture is a Gateway over a fresh store with the offline provider,
// allowing telegram user 42.
type fixture struct {
	t    *testing.T
	home string
	prov provider.Provider
	g    *Gateway
	mu   sync.Mutex
	logs []string
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, home: t.TempDir(), prov: offline.New("")}
	f.restart()
	return f
}

// restart replaces the gateway by a new one on the same home, as a new
// process would (the old one is closed first).
func (f *fixture) restart() {
	f.t.Helper()
	if f.g != nil {
		if err := f.g.Close(); err != nil {
			f.t.Fatal(err)
		}
	}
	st, err := OpenState(f.home)
	if err != nil {
		f.t.Fatal(err)
	}
	f.g = New(Options{NewEngine: f.engine, State: st, Mirror: true, Allow: map[string]AllowList{"telegram": {"42"}},
		Log: func(l string) { f.mu.Lock(); f.logs = append(f.logs, l); f.mu.Unlock() }})
}

func (f *fixture) store() *session.Store {
	st, err := session.Open(filepath.Join(f.home, "sessions"))
	if err != nil {
		f.t.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(f.home, "transcripts"))
	return st
}

func (f *fixture) engine() (*conversation.Engine, error) {
	return conversation.New(conversation.Options{Store: f.store(), Provider: f.prov, JournalDir: filepath.Join(f.home, "transcripts")}), nil
}

// send sends text as telegram user and returns what was answered.
func (f *fixture) send(user, text string) []string {
	f.t.Helper()
	var r recorder
	m := Message{Principal: Principal{Channel: "telegram", User: user}, Chat: user, Text: text}
	if err := f.g.Handle(context.Background(), m, &r); err != nil {
		f.t.Fatal(err)
	}
	return r.replies
}

// history is session name's messages as "role: content" lines.
func (f *fixture) history(name string) []string {
	f.t.Helper()
	s, err := f.store().Load(name)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, m := range s.History {
		out = append(out, string(m.Role)+": "+m.Content)
	}
	return out
}

func (f *fixture) logged(sub string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, l := range f.logs {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

// recorder is a Replier keeping what is sent.
type recorder struct {
	mu      sync.Mutex
	replies []string
	typing  int
}

func (r *recorder) Reply(_ context.Context, text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies = append(r.replies, text)
	return nil
}

func (r *recorder) Typing(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.typing++
	return nil
}

// failingProvider is the OpenAI client against a server on 127.0.0.1 that
// answers every chat completion with a 500 error.
func failingProvider(t *testing.T) provider.Provider {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"message":"the model is overloaded","type":"server_error"}}`))
	}))
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
