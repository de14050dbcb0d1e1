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
	"sync/atomic"
	"testing"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "chatcli-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "chatcli")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run starts the built binary with env (on top of a minimal environment)
// and stdin, and returns stdout, stderr and the exit code.
func run(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runInDir(t, "", env, stdin, args...)
}

// runInDir is run with the working folder dir ("": this one).
func runInDir(t *testing.T, dir string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

type doc struct {
	Version     int `json:"version"`
	ChatHistory []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"chat_history"`
}

// scenario: two prompts and /session save in the REPL, a third prompt with
// -p --session in a new process, then session show --json.
func scenario(t *testing.T, env []string) doc {
	t.Helper()
	out, errOut, code := run(t, env, "hello\nsecond prompt\n/session save demo\n")
	if code != 0 {
		t.Fatalf("repl exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `Saved 4 messages as session "demo"`) {
		t.Fatalf("repl stdout:\n%s", out)
	}
	out, errOut, code = run(t, env, "", "-p", "third", "--session", "demo")
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Fatalf("-p exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	out, errOut, code = run(t, env, "", "session", "show", "demo", "--json")
	if code != 0 {
		t.Fatalf("show exit %d: %s", code, errOut)
	}
	var d doc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("show --json is not JSON: %v\n%s", err, out)
	}
	if d.Version != 2 || len(d.ChatHistory) != 6 {
		t.Fatalf("want 6 messages in a v2 document, got %d:\n%s", len(d.ChatHistory), out)
	}
	for i, want := range []string{"hello", "second prompt", "third"} {
		if m := d.ChatHistory[2*i]; m.Role != "user" || m.Content != want {
			t.Fatalf("message %d: %+v", 2*i, m)
		}
		if d.ChatHistory[2*i+1].Role != "assistant" || d.ChatHistory[2*i+1].Content == "" {
			t.Fatalf("reply %d: %+v", 2*i+1, d.ChatHistory[2*i+1])
		}
	}
	return d
}

func TestEndToEndOffline(t *testing.T) {
	home := t.TempDir()
	d := scenario(t, []string{"CHATCLI_HOME=" + home})
	if !strings.Contains(d.ChatHistory[5].Content, "offline") {
		t.Fatalf("offline reply must say so: %q", d.ChatHistory[5].Content)
	}
	out, _, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "session", "list", "--json")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0]["name"] != "demo" ||
		list[0]["messages"] != float64(6) || list[0]["title"] != "hello" || list[0]["updated_at"] == nil {
		t.Fatalf("list --json (exit %d):\n%s", code, out)
	}
}

// openAIServer speaks the chat-completions streaming wire format and
// replies "echo: <last user message>".
func openAIServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"no route"}}`, 404)
			return
		}
		hits.Add(1)
		var req struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		last := req.Messages[len(req.Messages)-1]
		text := fmt.Sprintf("echo: %v", last.Content)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, part := range []string{text[:3], text[3:]} {
			chunk, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
				"choices": []map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": part}}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
		fin, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", fin)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestEndToEndOpenAICompatible(t *testing.T) {
	srv, hits := openAIServer(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=test-model"}
	d := scenario(t, env)
	if d.ChatHistory[5].Content != "echo: third" || hits.Load() != 3 {
		t.Fatalf("reply %q after %d requests", d.ChatHistory[5].Content, hits.Load())
	}
}

func TestOpenAIAPIURLAlias(t *testing.T) {
	srv, hits := openAIServer(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_API_URL=" + srv.URL + "/v1/chat/completions"}
	out, errOut, code := run(t, env, "", "-p", "hi")
	if code != 0 || strings.TrimSpace(out) != "echo: hi" || hits.Load() != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestExitCodes(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "sessions"), 0o700)
	os.WriteFile(filepath.Join(home, "sessions", "cut.json"), []byte(`{"version":2,"chat_his`), 0o600)
	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
	}))
	t.Cleanup(unauthorized.Close)
	os.WriteFile(filepath.Join(home, "sessions", "empty.json"), nil, 0o600)
	env := []string{"CHATCLI_HOME=" + home}
	mustRun(t, env, "", "-p", "hello", "--session", "good")
	for _, c := range []struct {
		env  []string
		args []string
		code int
		says string
	}{
		{nil, []string{"extra"}, exitUsage, "unexpected argument"},
		{nil, []string{"-p", "x", "--session", ""}, exitUsage, "--session needs a NAME"},
		{nil, []string{"session", "show", "../x"}, exitUsage, "letters and digits"},
		{nil, []string{"session", "show", "nope"}, exitNotFound, "not found"},
		{nil, []string{"session", "show", "cut"}, exitData, "cut.json: invalid JSON"},
		{nil, []string{"session", "show", "cut"}, exitData, "; move it aside, then `chatcli session restore cut` brings back a copy from the trash"},
		{nil, []string{"session", "show", "empty"}, exitData, "empty.json: file is empty (0 bytes); move it aside, then `chatcli session restore empty`"},
		{nil, []string{"session", "fork", "good", "good"}, exitUsage, `already exists: "good"; pick another name for the fork`},
		{nil, []string{"session", "rename", "good", "empty"}, exitUsage, `already exists: "empty"; pick another name`},
		{nil, []string{"session", "rename", "missing", "z"}, exitNotFound, `not found: "missing" (no file ` + filepath.Join(home, "sessions", "missing.json") + ")"},
		{nil, []string{"session", "delete", "missing", "--yes"}, exitNotFound, `not found: "missing" (no file ` + filepath.Join(home, "sessions", "missing.json") + ")"},
		{nil, []string{"session", "rewind", "good", "--to", "99"}, exitUsage, "no such checkpoint: 99 (session \"good\" has 1); `chatcli session rewind good --list` shows them"},
		{nil, []string{"session", "list", "--bogus"}, exitUsage, "unknown flag: --bogus; see chatcli session list --help"},
		{nil, []string{"--bogus"}, exitUsage, "unknown flag: --bogus; see chatcli --help"},
		{nil, []string{"session", "delete", "cut"}, exitUsage, "--yes"},
		{[]string{"LLM_PROVIDER=openai"}, []string{"-p", "x"}, exitUsage, "OPENAI_API_KEY is not set"},
		{[]string{"OPENAI_BASE_URL=" + unauthorized.URL + "/v1"}, []string{"-p", "x"}, exitProvider, "authentication failed"},
	} {
		_, errOut, code := run(t, append(env, c.env...), "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d (want %d), stderr %q (want one line with %q)", c.args, code, c.code, errOut, c.says)
		}
	}
}

func TestScriptModeExitsWithTheProviderCode(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(503)
		fmt.Fprint(w, `{"error":{"message":"overloaded","type":"server_error"}}`)
	}))
	t.Cleanup(down.Close)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + down.URL + "/v1"}
	if _, errOut, code := run(t, env, "hello\n"); code != exitProvider {
		t.Fatalf("exit %d, want %d: %s", code, exitProvider, errOut)
	}
	if _, _, code := run(t, env, "/nope\n"); code != exitUsage {
		t.Fatalf("an unknown command: exit %d", code)
	}
	if _, _, code := run(t, env, "hello\n/nope\n"); code != exitError {
		t.Fatalf("a provider failure and an unknown command: exit %d", code)
	}
}

// TestScriptModeKeepsTheClassOfItsFailures: a script whose failed lines all
// failed with one class exits with that class's code; mixed classes exit 1.
func TestScriptModeKeepsTheClassOfItsFailures(t *testing.T) {
	home := t.TempDir()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	wrong := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(2)}
	none := []string{"CHATCLI_HOME=" + home}
	mustRun(t, right, "hello\n/session save zoo\n")
	for _, c := range []struct {
		name  string
		env   []string
		input string
		code  int
		says  string
	}{
		{"wrong key", wrong, "/session load zoo\n", exitData, "wrong encryption key"},
		{"no key", none, "/session load zoo\n/session load zoo\n", exitData, "CHATCLI_ENCRYPTION_KEY"},
		{"not found", right, "/session load nope\n", exitNotFound, "not found"},
		{"bad name", right, "/session save ../x\n", exitUsage, "letters and digits"},
		{"mixed", wrong, "/session load zoo\n/session load nope\n", exitError, "some input lines failed (2; each is reported above)"},
	} {
		_, errOut, code := run(t, c.env, c.input)
		if code != c.code || !strings.Contains(errOut, c.says) || !strings.Contains(errOut, "some input lines failed") {
			t.Errorf("%s: exit %d (want %d), stderr:\n%s", c.name, code, c.code, errOut)
		}
	}
}
