package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// gatedServer speaks the chat-completions wire format (non-streaming and
// SSE) and holds every request until release is closed; arrived is closed
// when the first request comes in.
func gatedServer(t *testing.T) (srv *httptest.Server, arrived, release chan struct{}) {
	arrived, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		once.Do(func() { close(arrived) })
		<-release
		w.Header().Set("Content-Type", "text/event-stream")
		chunk, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": "reply to B"}}}})
		fin, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: %s\n\ndata: [DONE]\n\n", chunk, fin)
	}))
	t.Cleanup(srv.Close)
	return srv, arrived, release
}

func userPrompts(h []message.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == message.RoleUser {
			out = append(out, m.Content)
		}
	}
	return out
}

// con-1 with two processes: A and B both have session S loaded; A adds a
// turn and saves while B's turn is in flight; then B saves. Both turns
// must be in S.
func TestCon1TwoProcesses(t *testing.T) { // case con-1
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if out, errOut, code := run(t, env, "/session attach S\nzero\n"); code != 0 {
		t.Fatalf("setup: %d\n%s\n%s", code, out, errOut)
	}
	srv, arrived, release := gatedServer(t)
	b := exec.Command(binary)
	b.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CHATCLI_HOME=" + home,
		"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=test-model"}
	b.Stdin = strings.NewReader("/session attach S\nfrom B\n")
	var bOut, bErr bytes.Buffer
	b.Stdout, b.Stderr = &bOut, &bErr
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	select { // B has read S and sent its request
	case <-arrived:
	case <-time.After(20 * time.Second):
		b.Process.Kill()
		t.Fatalf("B never sent its request:\n%s\n%s", bOut.String(), bErr.String())
	}
	if out, errOut, code := run(t, env, "/session attach S\nfrom A\n"); code != 0 {
		t.Fatalf("A: %d\n%s\n%s", code, out, errOut)
	}
	close(release)
	if err := b.Wait(); err != nil {
		t.Fatalf("B: %v\n%s\n%s", err, bOut.String(), bErr.String())
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load("S")
	if err != nil {
		t.Fatal(err)
	}
	// B's turn was under way when A's landed: B's reply stays with B's
	// prompt, A's turn follows, both in the journal's order.
	if got := strings.Join(userPrompts(s.History), ","); got != "zero,from B,from A" || s.History[3].Content != "reply to B" {
		t.Fatalf("S holds %q; B said:\n%s", got, bErr.String())
	}
	if !strings.Contains(bErr.String(), `session "S": took in 2 messages written in another window`) {
		t.Fatalf("B did not say it took in A's turn:\n%s", bErr.String())
	}
	checkJournals(t, home)
}

// checkJournals checks that every line of every journal under home parses;
// it returns the set of user prompts the journals hold.
func checkJournals(t *testing.T, home string) map[string]bool {
	t.Helper()
	return checkSealedJournals(t, home, seal.Key{})
}

// checkSealedJournals is checkJournals for journals sealed with key.
func checkSealedJournals(t *testing.T, home string, key seal.Key) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no journal written")
	}
	prompts := map[string]bool{}
	for _, f := range files {
		msgs, _, warnings, err := journal.Messages(f, key)
		if err != nil || len(warnings) != 0 {
			t.Fatalf("journal %s: %v %v", f, err, warnings)
		}
		for _, u := range userPrompts(msgs) {
			prompts[u] = true
		}
	}
	return prompts
}
