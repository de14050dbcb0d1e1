package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpClientDir holds the Node client built on the official MCP TypeScript
// SDK; .ci/run installs its node_modules.
var mcpClientDir = filepath.Join("..", "..", "test", "mcpclient")

// needMCPClient skips when node or the client's modules are missing, except
// in CI, where that is a failure.
func needMCPClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(mcpClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the MCP test client is not installed (%v): .ci/run runs npm ci --prefix test/mcpclient", err)
		}
		t.Skipf("the MCP test client is not installed (%v); npm ci --prefix test/mcpclient installs it", err)
	}
	return node
}

// TestMCPServerWithTheOfficialTypeScriptClient runs test/mcpclient/run.mjs:
// the TypeScript SDK's client starts `chatcli mcp-server` over stdio, lists
// the tools, chats, runs every manage_session action and a `chatcli -p`
// turn in between, asserting each result. Then the store is checked here.
func TestMCPServerWithTheOfficialTypeScriptClient(t *testing.T) {
	node := needMCPClient(t)
	home := t.TempDir()
	cmd := exec.Command(node, filepath.Join(mcpClientDir, "run.mjs"), binary)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CHATCLI_HOME=" + home}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("node run.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	t.Logf("%s in %v", strings.TrimSpace(out.String()), time.Since(start).Round(time.Millisecond))
	if !strings.HasPrefix(out.String(), "ok: ") {
		t.Fatalf("run.mjs said:\n%s", out.String())
	}

	env := []string{"CHATCLI_HOME=" + home}
	stdout, errOut, code := run(t, env, "", "session", "list", "--json")
	var list []struct {
		Name     string `json:"name"`
		Messages int    `json:"messages"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &list) != nil {
		t.Fatalf("session list (exit %d): %s %s", code, stdout, errOut)
	}
	got := map[string]int{}
	mirrors := 0
	for _, s := range list {
		got[s.Name] = s.Messages
		if strings.HasPrefix(s.Name, "mcp-") {
			mirrors++
		}
	}
	if got["demo"] != 4 || got["shared"] != 8 || mirrors != 2 || len(list) != 4 {
		t.Fatalf("sessions after the MCP run: %v", got)
	}
	// The turns of three processes, in order, in one session.
	stdout, _, _ = run(t, env, "", "session", "show", "shared", "--json")
	var d doc
	json.Unmarshal([]byte(stdout), &d)
	var users []string
	for _, m := range d.ChatHistory {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if strings.Join(users, "|") != "from mcp|from the terminal|after the terminal|with progress" {
		t.Fatalf("shared holds %q", users)
	}
	// delete went through the trash; the open-session markers are released.
	if trash, _ := filepath.Glob(filepath.Join(home, "trash", "renamed.*")); len(trash) != 1 {
		t.Fatalf("trash: %v", trash)
	}
	if markers, _ := filepath.Glob(filepath.Join(home, "locks", "*.open")); len(markers) != 0 {
		t.Fatalf("markers left behind: %v", markers)
	}
}

// TestMCPServerStdoutIsOnlyProtocol starts the server on a store whose
// retention pass has something to say, sends a request and closes stdin:
// the notices go to stderr, stdout holds only the JSON-RPC answer, and the
// exit is clean.
func TestMCPServerStdoutIsOnlyProtocol(t *testing.T) {
	home := t.TempDir()
	oldStore(t, home)
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chat","arguments":{"prompt":"hi"}}}` + "\n"
	stdout, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, in, "mcp-server")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, l := range lines {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line that is not JSON-RPC: %q", l)
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[1], `[offline] reply #1 to: hi`) {
		t.Fatalf("stdout:\n%s", stdout)
	}
	if !strings.Contains(errOut, "note: storage: moved 1 machine-made session to the trash") || !strings.Contains(errOut, "MCP server on stdio") {
		t.Fatalf("stderr:\n%s", errOut)
	}
}

func TestMCPServerHelpHasAClientSnippet(t *testing.T) {
	stdout, _, code := run(t, nil, "", "mcp-server", "--help")
	for _, want := range []string{"manage_session", "chat", `"command": "chatcli"`, `"args": ["mcp-server"]`, "CHATCLI_MCP_SESSION_AUTOSAVE"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Fatalf("help (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
	if _, errOut, code := run(t, nil, "", "mcp-server", "extra"); code != exitUsage || !strings.Contains(errOut, "extra") {
		t.Fatalf("extra argument: exit %d %s", code, errOut)
	}
}
