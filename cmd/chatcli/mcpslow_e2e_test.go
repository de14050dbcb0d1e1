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
	"testing"
	"time"
)

// slowReplyServer speaks the streaming chat-completions wire format: after
// silent of silence it streams its reply in chunks, one every gap, the
// last one "done.". A client that goes away ends the reply.
func slowReplyServer(t *testing.T, silent, gap time.Duration, chunks int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(delta map[string]any, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
				"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		wait := func(d time.Duration) bool {
			select {
			case <-r.Context().Done():
				return false
			case <-time.After(d):
				return true
			}
		}
		if !wait(silent) {
			return
		}
		for i := range chunks {
			text := fmt.Sprintf("part %d; ", i+1)
			if i == chunks-1 {
				text = "done."
			}
			send(map[string]any{"role": "assistant", "content": text}, nil)
			if i < chunks-1 && !wait(gap) {
				return
			}
		}
		send(map[string]any{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runSlowMCP runs test/mcpclient/slow.mjs against a provider at srv with
// the client's request timeout, and returns what it printed.
func runSlowMCP(t *testing.T, node string, srv *httptest.Server, timeout time.Duration, args ...string) string {
	t.Helper()
	cmd := exec.Command(node, append([]string{filepath.Join(mcpClientDir, "slow.mjs"), binary, fmt.Sprint(timeout.Milliseconds())}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CHATCLI_HOME=" + t.TempDir(),
		"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("node slow.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	return out.String()
}

// TestMCPTurnLongerThanTheClientTimeout: with the official TypeScript
// client's timeout lowered to 2 s, a 5 s turn whose reply streams
// completes, kept alive by chat's progress notifications; the same turn
// without resetting the timeout on progress times out, as every turn
// longer than 60 s did before progress was sent.
func TestMCPTurnLongerThanTheClientTimeout(t *testing.T) {
	node := needMCPClient(t)
	srv := slowReplyServer(t, 0, 600*time.Millisecond, 9)
	out := runSlowMCP(t, node, srv, 2*time.Second, "control")
	if !strings.Contains(out, "ok: a ") || !strings.Contains(out, "the client times out") {
		t.Fatalf("slow.mjs said:\n%s", out)
	}
	t.Log(strings.TrimSpace(out))
}

// TestMCPTurnLongerThanSixtySecondsStress: the SDK's own 60 s timeout and a
// provider silent for 70 s: only chat's periodic progress (every 10 s)
// keeps the request alive. It takes 70 s: CHATCLI_STRESS=1 runs it.
func TestMCPTurnLongerThanSixtySecondsStress(t *testing.T) {
	if os.Getenv("CHATCLI_STRESS") == "" {
		t.Skip("a 70 s turn; CHATCLI_STRESS=1 runs it")
	}
	node := needMCPClient(t)
	srv := slowReplyServer(t, 70*time.Second, 0, 1)
	out := runSlowMCP(t, node, srv, 60*time.Second)
	if !strings.Contains(out, "ok: a ") {
		t.Fatalf("slow.mjs said:\n%s", out)
	}
	t.Log(strings.TrimSpace(out))
}
