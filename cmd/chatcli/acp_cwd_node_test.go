package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/recent"
)

// TestACPCwdWithTheOfficialClient: the npm ACP client opens a thread with
// session/new's cwd (test/acpclient/cwd.mjs); the thread's agent turn
// lists that folder, not the server's, and the session it saved is
// recorded as used there (session/list's cwd, and session list's folder).
func TestACPCwdWithTheOfficialClient(t *testing.T) {
	node, dir := needACPClient(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "only-in-the-workspace.txt"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var listed atomic.Bool
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"call_ls", "list_dir", map[string]string{"path": "."}}}},
		{Text: "listed"},
	}, func(i int, req scriptRequest) {
		if i == 1 {
			r := req.toolResults()["call_ls"]
			listed.Store(strings.Contains(r, "only-in-the-workspace.txt") && !strings.Contains(r, "cwd.mjs"))
		}
	})
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m", "CHATCLI_AGENT_AUTO_EXEC=true"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "cwd.mjs", binary, ws, recent.Folder(ws))
	cmd.Dir = dir // the server's own folder: not the thread's
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node cwd.mjs: %v\n%s", err, out)
	}
	if !listed.Load() {
		t.Fatalf("list_dir did not list the thread's cwd\n%s", out)
	}
	if got := foldersOf(t, env)["ws-thread"]; got != recent.Folder(ws) {
		t.Fatalf("ws-thread is recorded in %q, want %q", got, recent.Folder(ws))
	}
}
