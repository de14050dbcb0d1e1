package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/session"
)

// permitBox is a small toolbox for the -p --agent tests: list_files lists
// the workspace, write_file asks permit first (unless auto-exec) and then
// writes.
type permitBox struct {
	root     string
	permit   *repl.Permit
	autoExec bool
}

func (b *permitBox) Tools(string) []provider.Tool {
	return []provider.Tool{{Name: "list_files"}, {Name: "write_file",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}`)}}
}

func (b *permitBox) Run(ctx context.Context, _ string, c message.ToolCall) (string, bool) {
	switch c.Name {
	case "list_files":
		ents, _ := os.ReadDir(b.root)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return strings.Join(names, "\n"), false
	case "write_file":
		var a struct{ Path, Content string }
		json.Unmarshal([]byte(c.Arguments), &a)
		if !b.autoExec {
			p, err := b.permit.Ask(ctx, fmt.Sprintf("write %s (%d B)", a.Path, len(a.Content)))
			if err != nil {
				return err.Error(), true
			}
			if p == repl.PermissionNo {
				return "refused by the user", true
			}
		}
		if err := os.WriteFile(filepath.Join(b.root, a.Path), []byte(a.Content), 0o600); err != nil {
			return err.Error(), true
		}
		return "wrote " + a.Path, false
	}
	return "unknown tool", true
}

// agentServer answers the first request with two parallel calls
// (list_files, write_file) and the second with a final text; it hands the
// tool results of the second request to check.
func agentServer(t *testing.T, check func(results map[string]string)) *httptest.Server {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Tools    []any `json:"tools"`
			Messages []struct {
				Role       string `json:"role"`
				Content    any    `json:"content"`
				ToolCallID string `json:"tool_call_id"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		if len(req.Tools) != 2 {
			t.Errorf("request %d offers %d tools", n, len(req.Tools))
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta, finish string) {
			fr := "null"
			if finish != "" {
				fr = `"` + finish + `"`
			}
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fr)
		}
		if n == 0 {
			chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"list_files","arguments":""}}]}`, "")
			chunk(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"out.txt\","}}]}`, "")
			chunk(`{"tool_calls":[{"index":1,"function":{"arguments":"\"content\":\"hi\"}"}}]}`, "")
			chunk(`{}`, "tool_calls")
		} else {
			results := map[string]string{}
			for _, m := range req.Messages {
				if m.Role == "tool" {
					results[m.ToolCallID], _ = m.Content.(string)
				}
			}
			check(results)
			chunk(`{"content":"All done."}`, "")
			chunk(`{}`, "stop")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
		n++
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runAgentCLI runs chatcli in-process with the test toolbox and returns
// stdout, stderr and the error.
func runAgentCLI(t *testing.T, env map[string]string, ws string, args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &out, Err: &errb},
		getenv: func(k string) string { return env[k] }}
	f.newToolbox = func(c config.Config, p *repl.Permit) (conversation.Toolbox, error) {
		return &permitBox{root: ws, permit: p, autoExec: c.Agent.AutoExec}, nil
	}
	defer f.close()
	cmd := newRootCmd(f, nil)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

func TestOneShotAgentRefusesUnapprovedWritesWithoutATerminal(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main"), 0o600)
	srv := agentServer(t, func(r map[string]string) {
		if r["call_1"] != "main.go" || !strings.Contains(r["call_2"], "input is not a terminal") ||
			!strings.Contains(r["call_2"], "--agent-auto-exec") {
			t.Errorf("tool results: %q", r)
		}
	})
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	out, errOut, err := runAgentCLI(t, env, ws, "-p", "write hi to out.txt", "--agent", "--session", "task")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if out != "All done.\n" {
		t.Errorf("stdout %q, want the final answer only", out)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "[tool] list_files") || !strings.Contains(lines[1], "refused: not approved") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "out.txt")); err == nil {
		t.Error("an unapproved write happened")
	}
	st, _ := session.Open(filepath.Join(home, "sessions"))
	s, err := st.Load("task")
	if err != nil {
		t.Fatal(err)
	}
	if err := message.Validate(s.History); err != nil || len(s.History) != 6 || s.History[0].Meta.Mode != "agent" ||
		!s.History[4].Meta.ToolError {
		t.Errorf("saved history (%v): %+v", err, s.History)
	}
}

func TestOneShotAgentAutoExecWrites(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	srv := agentServer(t, func(r map[string]string) {
		if r["call_2"] != "wrote out.txt" {
			t.Errorf("tool results: %q", r)
		}
	})
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	out, errOut, err := runAgentCLI(t, env, ws, "-p", "write", "--coder", "--agent-auto-exec")
	if err != nil || out != "All done.\n" {
		t.Fatalf("%v %q\n%s", err, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "out.txt")); string(b) != "hi" {
		t.Errorf("out.txt = %q", b)
	}
	env["CHATCLI_AGENT_AUTO_EXEC"] = "on" // the variable does what the flag does
	os.Remove(filepath.Join(ws, "out.txt"))
	srv2 := agentServer(t, func(r map[string]string) {
		if r["call_2"] != "wrote out.txt" {
			t.Errorf("tool results: %q", r)
		}
	})
	env["OPENAI_BASE_URL"] = srv2.URL + "/v1"
	if _, errOut, err := runAgentCLI(t, env, ws, "-p", "write", "--coder"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if _, err := runAgentCLIErr(t, env, ws, "-p", "x", "--agent", "--coder"); err == nil {
		t.Error("--agent with --coder accepted")
	}
}

func runAgentCLIErr(t *testing.T, env map[string]string, ws string, args ...string) (string, error) {
	_, errOut, err := runAgentCLI(t, env, ws, args...)
	return errOut, err
}

func TestAgentModeWithoutToolsSaysSo(t *testing.T) {
	var out, errb bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &out, Err: &errb},
		getenv: func(k string) string { return map[string]string{"CHATCLI_HOME": t.TempDir()}[k] }}
	f.newToolbox = func(config.Config, *repl.Permit) (conversation.Toolbox, error) { return nil, nil }
	defer f.close()
	cmd := newRootCmd(f, nil)
	cmd.SetArgs([]string{"-p", "x", "--agent"})
	if err := cmd.ExecuteContext(context.Background()); err == nil || !strings.Contains(err.Error(), "no tools available") {
		t.Fatalf("err = %v", err)
	}
}
