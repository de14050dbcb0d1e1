package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/recent"
)

// TestACPThreadWorksInItsCwd: the tools of a thread opened with
// session/new's cwd list that folder, not the server's, and session/list
// reports the folder a session was used in.
func TestACPThreadWorksInItsCwd(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "only-in-the-workspace.txt"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"call_ls", "list_dir", map[string]string{"path": "."}}}},
		{Text: "listed"},
	}, func(i int, req scriptRequest) {
		if i == 1 {
			if r := req.toolResults()["call_ls"]; !strings.Contains(r, "only-in-the-workspace.txt") || strings.Contains(r, "acp_cwd_test.go") {
				t.Errorf("list_dir ran outside the thread's cwd: %q", r)
			}
		}
	})
	home := t.TempDir()
	p := startACP(t, []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m", "CHATCLI_AGENT_AUTO_EXEC=true"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, bad := range []string{"relative/dir", filepath.Join(ws, "only-in-the-workspace.txt"), filepath.Join(ws, "missing")} {
		if _, err := p.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: bad, McpServers: []acp.McpServer{}}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("session/new with cwd %q: %v", bad, err)
		}
	}
	r, err := p.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: ws, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"/session save in-ws", "/agent list the folder"} {
		if err := p.turn(ctx, r.SessionId, prompt); err != nil {
			t.Fatalf("%s: %v\n%s", prompt, err, p.stderr.String())
		}
	}
	list, err := p.conn.ListSessions(ctx, acp.ListSessionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range list.Sessions {
		if s.SessionId == "in-ws" {
			found = true
			if s.Cwd != recent.Folder(ws) {
				t.Errorf("session/list gives in-ws the cwd %q, want %q", s.Cwd, recent.Folder(ws))
			}
		}
	}
	if !found {
		t.Fatalf("in-ws not listed: %+v", list.Sessions)
	}
	p.close(t)
}
