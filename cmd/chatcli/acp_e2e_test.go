package main

import (
	"bytes"
	"context"
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

// slowEchoServer speaks the streaming chat-completions wire format: it
// replies "echo: <last user message>" in two chunks, and for a prompt
// starting with "slow" sends the first chunk and then waits for the client
// to go away.
func slowEchoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content any `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		last := fmt.Sprint(req.Messages[len(req.Messages)-1].Content)
		text := "echo: " + last
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(delta map[string]any, finish any) {
			b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
				"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
			fmt.Fprintf(w, "data: %s\n\n", b)
			w.(http.Flusher).Flush()
		}
		send(map[string]any{"role": "assistant", "content": text[:3]}, nil)
		if strings.HasPrefix(last, "slow") {
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
			return
		}
		send(map[string]any{"content": text[3:]}, nil)
		send(map[string]any{}, "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// needACPClient returns node and the folder of the npm ACP client
// (test/acpclient); it skips when either is missing, except in CI.
func needACPClient(t *testing.T) (node, dir string) {
	t.Helper()
	dir, err := filepath.Abs("../../test/acpclient")
	if err != nil {
		t.Fatal(err)
	}
	node, nerr := exec.LookPath("node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil || nerr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the ACP test client is not installed (.ci/run runs npm ci in %s): node %v, modules %v", dir, nerr, err)
		}
		t.Skipf("node or %s/node_modules missing (npm ci there to run this test)", dir)
	}
	return node, dir
}

// TestACPWithTheOfficialClient drives `chatcli acp` with the npm ACP SDK
// (test/acpclient/run.mjs): initialize, session/new, a streamed prompt, a
// cancelled prompt, session/list, and session/load of a session saved by
// `chatcli -p --session`, whose later turn `chatcli session show` sees.
func TestACPWithTheOfficialClient(t *testing.T) {
	node, dir := needACPClient(t)
	srv := slowEchoServer(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	if out, errOut, code := run(t, env, "", "-p", "hi", "--session", "saved"); code != 0 {
		t.Fatalf("-p --session saved: exit %d\n%s\n%s", code, out, errOut)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "run.mjs", binary, "saved")
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node run.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)

	show, errOut, code := run(t, env, "", "session", "show", "saved", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(show), &d) != nil {
		t.Fatalf("session show saved: exit %d\n%s\n%s", code, show, errOut)
	}
	var got []string
	for _, m := range d.ChatHistory {
		got = append(got, m.Role+":"+m.Content)
	}
	if want := "user:hi|assistant:echo: hi|user:from acp|assistant:echo: from acp"; strings.Join(got, "|") != want {
		t.Fatalf("saved after the ACP turn:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}

	// The unbound ACP session was mirrored, its cancelled prompt kept.
	list, _, _ := run(t, env, "", "session", "list", "--json")
	var heads []struct{ Name string }
	json.Unmarshal([]byte(list), &heads)
	var mirror string
	for _, h := range heads {
		if strings.HasPrefix(h.Name, "mcp-") {
			mirror = h.Name
		}
	}
	if mirror == "" {
		t.Fatalf("no mcp- mirror among %s", list)
	}
	show, _, _ = run(t, env, "", "session", "show", mirror, "--json")
	if !strings.Contains(show, `"slow one"`) || !strings.Contains(show, `"unanswered": true`) && !strings.Contains(show, `"unanswered":true`) {
		t.Fatalf("mirror %s:\n%s", mirror, show)
	}
}

func TestACPCommandLine(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	out, _, code := run(t, env, "", "acp", "--help")
	if code != 0 || !strings.Contains(out, `"agent_servers"`) || !strings.Contains(out, `"args": ["acp"]`) {
		t.Fatalf("acp --help (exit %d):\n%s", code, out)
	}
	if _, errOut, code := run(t, env, "", "acp", "extra"); code != exitUsage || !strings.Contains(errOut, "extra") {
		t.Fatalf("acp extra: exit %d, %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "acp", "--provider", "nope"); code != exitUsage || !strings.Contains(errOut, "nope") {
		t.Fatalf("acp --provider nope: exit %d, %s", code, errOut)
	}
	// stdin closed at once: nothing on stdout, exit 0.
	if out, errOut, code := run(t, env, "", "acp"); code != 0 || out != "" {
		t.Fatalf("acp with empty stdin: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestACPKeepsStrayPrintsOffStdout: while `chatcli acp` serves, a write to
// os.Stdout by anything but the protocol goes to stderr; os.Stdout is
// restored afterwards.
func TestACPKeepsStrayPrintsOffStdout(t *testing.T) {
	realOut, realErr := os.Stdout, os.Stderr
	stdout, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout, os.Stderr = stdout, stderr
	t.Cleanup(func() { os.Stdout, os.Stderr = realOut, realErr; acpServing = func() {} })
	acpServing = func() { fmt.Print("stray print") }
	env := map[string]string{"CHATCLI_HOME": t.TempDir()}
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: os.Stdout, Err: &bytes.Buffer{}}, getenv: func(k string) string { return env[k] }}
	err = acpRun(context.Background(), &acpOptions{f: f})
	f.close()
	restored := os.Stdout
	os.Stdout, os.Stderr = realOut, realErr
	if err != nil || restored != stdout {
		t.Fatalf("acp: %v; os.Stdout restored: %v", err, restored == stdout)
	}
	if b, _ := os.ReadFile(stdout.Name()); len(b) != 0 {
		t.Fatalf("stdout holds %q", b)
	}
	if b, _ := os.ReadFile(stderr.Name()); string(b) != "stray print" {
		t.Fatalf("stderr holds %q", b)
	}
}
