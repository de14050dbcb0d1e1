package conversation

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

// bodyServer is a chat-completions server (SSE) that keeps each request's
// messages as "role:content" strings and answers "ok".
func bodyServer(t *testing.T) (*httptest.Server, func() [][]string) {
	var mu sync.Mutex
	var reqs [][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request: %v", err)
		}
		var got []string
		for _, m := range req.Messages {
			got = append(got, m.Role+":"+m.Content)
		}
		mu.Lock()
		reqs = append(reqs, got)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() [][]string { mu.Lock(); defer mu.Unlock(); return append([][]string(nil), reqs...) }
}

// The supplement leads every request, sees the attachments and the latest
// prompt, and is never part of the history, the saved file or the request
// cache: the request after it is again exactly supplement + history.
func TestSupplementLeadsEveryRequestAndIsNeverStored(t *testing.T) {
	srv, reqs := bodyServer(t)
	f := newFixture(t)
	var prompts []string
	var seen []string
	e := New(Options{Store: f.store, Provider: openaiClient(t, srv.URL), Now: time.Now,
		Supplement: func(att json.RawMessage, prompt string) []message.Message {
			prompts, seen = append(prompts, prompt), append(seen, string(att))
			return []message.Message{{Role: message.RoleSystem, Content: "SUPPLEMENT " + prompt}}
		}})
	turn(t, e, "one")
	if err := e.SetAttachments(json.RawMessage(`[{"name":"ctx"}]`)); err != nil {
		t.Fatal(err)
	}
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "two")
	got := reqs()
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	want := [][]string{{"system:SUPPLEMENT one", "user:one"}, {"system:SUPPLEMENT two", "user:one", "assistant:ok", "user:two"}}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Fatalf("request %d: %q, want %q", i, got[i], want[i])
		}
	}
	if seen[0] != "" || seen[1] != `[{"name":"ctx"}]` {
		t.Fatalf("attachments seen: %q", seen)
	}
	for _, m := range e.History() {
		if strings.Contains(m.Content, "SUPPLEMENT") {
			t.Fatal("the supplement entered the history")
		}
	}
	s, err := f.store.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Attachments) != `[{"name":"ctx"}]` || len(s.History) != 4 {
		t.Fatalf("saved attachments %s, %d messages", s.Attachments, len(s.History))
	}
}

// Attachments set while bound are in the file at once, kept by a fork and
// by a load in another engine.
func TestAttachmentsFollowTheSession(t *testing.T) {
	f := newFixture(t)
	e := f.engine(offline.New(""))
	turn(t, e, "hello")
	if err := e.Save("a", false); err != nil {
		t.Fatal(err)
	}
	if err := e.SetAttachments(json.RawMessage(`[{"name":"docs"}]`)); err != nil {
		t.Fatal(err)
	}
	if s, err := f.store.Load("a"); err != nil || string(s.Attachments) != `[{"name":"docs"}]` {
		t.Fatalf("not written at once: %v %s", err, s.Attachments)
	}
	if err := e.Fork("b"); err != nil {
		t.Fatal(err)
	}
	other := f.engine(nil)
	if _, err := other.Load("b"); err != nil {
		t.Fatal(err)
	}
	if string(other.Attachments()) != `[{"name":"docs"}]` {
		t.Fatalf("fork lost the attachments: %s", other.Attachments())
	}
}

// Contexts attached before the conversation had a name stay attached when
// it gets one (save, attach to a new name).
func TestAttachmentsSurviveNamingTheConversation(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{"saved", "attached"} {
		e := f.engine(nil)
		if err := e.SetAttachments(json.RawMessage(`[{"context_id":"x"}]`)); err != nil {
			t.Fatal(err)
		}
		turn(t, e, "hello")
		var err error
		if name == "saved" {
			err = e.Save(name, false)
		} else {
			_, _, err = e.Attach(name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if s, err := f.store.Load(name); err != nil || string(s.Attachments) != `[{"context_id":"x"}]` {
			t.Fatalf("%s: %v %s", name, err, s.Attachments)
		}
	}
}
