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
)

// anthropicServer answers the Messages API's streaming form with "claude
// here", checking the key it was given (x-api-key, or the bearer token the
// SDK's WithAPIKey sends).
func anthropicServer(t *testing.T, key string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != key && r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"type":"error","error":{"type":"authentication_error","message":"bad key or path"}}`)
			return
		}
		hits.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range [][2]string{
			{"message_start", `{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}`},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
			{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"claude here"}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`},
			{"message_stop", `{"type":"message_stop"}`},
		} {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e[0], e[1])
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// A ChatCLI user's .env (LLM_PROVIDER=CLAUDEAI, CLAUDEAI_API_KEY) in the
// working folder configures chatcli; CHATCLI_DOTENV names another file
// (LLM_PROVIDER=OLLAMA, OLLAMA_BASE_URL); the process environment wins.
func TestE2EChatCLIDotenvAndProviders(t *testing.T) {
	claude, claudeHits := anthropicServer(t, "sk-from-env-file")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".env"), []byte("LLM_PROVIDER=CLAUDEAI\nCLAUDEAI_API_KEY=sk-from-env-file\nANTHROPIC_BASE_URL="+claude.URL+"\n"), 0o600)
	home := []string{"CHATCLI_HOME=" + t.TempDir()}
	out, errOut, code := runAt(t, dir, home, "", "-p", "hello")
	if code != 0 || !strings.Contains(out, "claude here") || claudeHits.Load() != 1 {
		t.Fatalf(".env: exit %d, %d hits\n%s\n%s", code, claudeHits.Load(), out, errOut)
	}

	ollama, ollamaHits := openAIServer(t)
	other := filepath.Join(t.TempDir(), "chatcli.env")
	os.WriteFile(other, []byte("LLM_PROVIDER=OLLAMA\nOLLAMA_BASE_URL="+ollama.URL+"\nOLLAMA_MODEL=llama3\n"), 0o600)
	out, errOut, code = runAt(t, dir, append(home, "CHATCLI_DOTENV="+other), "", "-p", "hi")
	if code != 0 || !strings.Contains(out, "echo: hi") || ollamaHits.Load() != 1 {
		t.Fatalf("CHATCLI_DOTENV: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = runAt(t, dir, append(home, "LLM_PROVIDER=offline"), "", "-p", "hi")
	if code != 0 || !strings.Contains(out, "offline") || claudeHits.Load() != 1 {
		t.Fatalf("the environment must win over .env: exit %d\n%s\n%s", code, out, errOut)
	}
	_, errOut, code = runAt(t, dir, append(home, "CHATCLI_DOTENV="+filepath.Join(dir, "nope.env")), "", "session", "list")
	if code != 0 || !strings.Contains(errOut, "nope.env") {
		t.Fatalf("a missing CHATCLI_DOTENV file is said, not fatal: exit %d\n%s", code, errOut)
	}
}

// A provider name neither program can use stops what needs a provider,
// naming the value, and never the session verbs; ChatCLI's enabled and
// disabled are on and off.
func TestE2EChatCLIProviderAndBooleanValues(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	mustRun(t, []string{home}, "", "-p", "hello", "--session", "s")
	_, errOut, code := run(t, []string{home, "LLM_PROVIDER=COPILOT"}, "", "-p", "x")
	if code != exitUsage || !strings.Contains(errOut, `"copilot"`) || !strings.Contains(errOut, "LLM_PROVIDER") {
		t.Fatalf("COPILOT: exit %d\n%s", code, errOut)
	}
	if out := mustRun(t, []string{home, "LLM_PROVIDER=COPILOT"}, "", "session", "list"); !strings.Contains(out, "s ") {
		t.Fatalf("session list: %s", out)
	}
	for v, saved := range map[string]bool{"disabled": false, "enabled": true} {
		h := t.TempDir()
		_, errOut, code := run(t, []string{"CHATCLI_HOME=" + h, "CHATCLI_SESSION_AUTOSAVE=" + v}, "one\ntwo\n")
		files, _ := filepath.Glob(filepath.Join(h, "sessions", "autosave-*.json"))
		if code != 0 || (len(files) == 1) != saved {
			t.Fatalf("CHATCLI_SESSION_AUTOSAVE=%s: exit %d, autosaves %v\n%s", v, code, files, errOut)
		}
	}
}

// The one-shot flags ChatCLI's scripts pass: --timeout and --max-tokens
// reach the request, --raw and --no-anim are accepted; -p "/agent TASK"
// runs TASK in agent mode, as in ChatCLI.
func TestE2EChatCLIOneShotHabits(t *testing.T) {
	var maxTokens atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			MaxTokens int64 `json:"max_tokens"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		maxTokens.Store(req.MaxTokens)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"short"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	home := "CHATCLI_HOME=" + t.TempDir()
	env := []string{home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out := mustRun(t, env, "", "-p", "hi", "--max-tokens", "42", "--timeout", "30s", "--raw", "--no-anim")
	if strings.TrimSpace(out) != "short" || maxTokens.Load() != 42 {
		t.Fatalf("out %q, max_tokens %d", out, maxTokens.Load())
	}
	if _, errOut, code := run(t, env, "", "-p", "hi", "--max-tokens", "-1"); code != exitUsage || !strings.Contains(errOut, "--max-tokens") {
		t.Fatalf("--max-tokens -1: exit %d %s", code, errOut)
	}

	mustRun(t, []string{home}, "", "-p", "/agent list the files here", "--session", "task")
	shown := mustRun(t, []string{home}, "", "session", "show", "task", "--json")
	if !strings.Contains(shown, `"content":"list the files here"`) || !strings.Contains(shown, `"mode":"agent"`) {
		t.Fatalf("-p \"/agent TASK\" did not run the task in agent mode:\n%s", shown)
	}
	if _, errOut, code := run(t, []string{home}, "", "-p", "/coder"); code != exitUsage || !strings.Contains(errOut, "needs a task") {
		t.Fatalf("-p /coder: exit %d %s", code, errOut)
	}
}

// Names ChatCLI created open, continue, rename and delete from the command
// line too.
func TestE2EChatCLINames(t *testing.T) {
	h := t.TempDir()
	env := []string{"CHATCLI_HOME=" + h}
	os.MkdirAll(filepath.Join(h, "sessions"), 0o700)
	for _, n := range []string{"con", "nul.txt", "a..b"} {
		os.WriteFile(filepath.Join(h, "sessions", n+".json"), []byte(`{"version":2,"chat_history":[{"role":"user","content":"from ChatCLI"},{"role":"assistant","content":"ok"}]}`), 0o600)
	}
	if out := mustRun(t, env, "", "session", "show", "con"); !strings.Contains(out, "from ChatCLI") {
		t.Fatalf("show con: %s", out)
	}
	mustRun(t, env, "", "-p", "more", "--session", "nul.txt")
	if out := mustRun(t, env, "", "session", "show", "nul.txt", "--json"); !strings.Contains(out, `"content":"more"`) {
		t.Fatalf("nul.txt not continued: %s", out)
	}
	mustRun(t, env, "", "session", "rename", "a..b", "a-b")
	mustRun(t, env, "", "session", "delete", "con", "--yes")
	if out := mustRun(t, env, "", "session", "list"); strings.Contains(out, "con ") || !strings.Contains(out, "a-b") {
		t.Fatalf("list after rename and delete:\n%s", out)
	}
	if _, errOut, code := run(t, env, "", "-p", "x", "--session", "com1"); code != exitUsage || !strings.Contains(errOut, "reserved") {
		t.Fatalf("a new reserved name: exit %d %s", code, errOut)
	}
}
