//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chatcli/chatcli/internal/shadow"
)

// coderFixture gives the store of env file checkpoints: a coder-mode turn
// of session job in a new workspace writes a file through write_file. It
// returns the workspace.
func coderFixture(t *testing.T, env []string) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "kept.txt"), []byte("before\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := lenientCoder(t, "kept.txt")
	_, stderr, code := runBoundedIn(t, ws, append(env, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m"),
		"", "-p", "write it", "--coder", "--agent-auto-exec", "--session", "job")
	if code != 0 {
		t.Fatalf("coder turn: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(shadow.RepoDir(filepathHome(env), ws)); err != nil {
		t.Fatalf("no checkpoint repository: %v", err)
	}
	return ws
}

// filepathHome is the CHATCLI_HOME of env.
func filepathHome(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "CHATCLI_HOME="); ok {
			return v
		}
	}
	return ""
}

// checkpointVerbs runs, in the workspace ws, the verbs that use file
// checkpoints: a coder turn that writes a file, the rewind list and a
// rewind of the code to the first checkpoint. Each must end within
// hangAfter; what they answer is not checked (a refusal is right).
func checkpointVerbs(t *testing.T, env []string, ws string) {
	t.Helper()
	srv := lenientCoder(t, "kept.txt")
	runBoundedIn(t, ws, append(env, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m"),
		"", "-p", "write it again", "--coder", "--agent-auto-exec", "--session", "job")
	runBoundedIn(t, ws, env, "", "session", "rewind", "job", "--list")
	runBoundedIn(t, ws, env, "", "session", "rewind", "job", "--to", "1", "--code")
}

// lenientCoder is a chat-completions server (SSE) whose first answer
// calls write_file on path and whose every later answer is a final text,
// however often it is asked: a turn that a hostile store cuts short
// fails no script.
func lenientCoder(t *testing.T, path string) *httptest.Server {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta any, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		if n.Add(1) == 1 {
			args, _ := json.Marshal(map[string]string{"path": path, "content": fmt.Sprintf("written %d\n", n.Load())})
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "w1", "type": "function",
				"function": map[string]any{"name": "write_file", "arguments": string(args)}}}}, nil)
			chunk(map[string]any{}, "tool_calls")
		} else {
			chunk(map[string]any{"role": "assistant", "content": "done"}, nil)
			chunk(map[string]any{}, "stop")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}
