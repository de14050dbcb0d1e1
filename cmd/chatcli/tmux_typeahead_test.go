package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestKeysTypedDuringATurnReachTheNextPrompt: what is typed while the REPL
// waits for a slow reply is kept, as the README says: a command typed with
// its Enter runs once the reply is in, and text typed without one is on
// the next prompt, ready to edit.
func TestKeysTypedDuringATurnReachTheNextPrompt(t *testing.T) {
	needTmux(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		time.Sleep(2 * time.Second)
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"slow answer"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-typeahead-%d", os.Getpid())}
	s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "first question", "Enter")
	s.waitFor("waiting for the model")
	s.run("send-keys", "-t", s.name, "/model", "Enter")
	s.run("send-keys", "-t", s.name, "second quest")
	scr := s.waitFor("Provider openai, model m.", "m> second quest")
	if i, j := strings.Index(scr, "slow answer"), strings.Index(scr, "Provider openai"); i < 0 || j < i {
		t.Fatalf("the command typed ahead did not run after the reply:\n%s", scr)
	}
}
