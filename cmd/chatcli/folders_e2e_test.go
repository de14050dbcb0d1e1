package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/recent"
)

// foldersOf is each session's recorded folder, from session list --json.
func foldersOf(t *testing.T, env []string) map[string]string {
	t.Helper()
	out, errOut, code := run(t, env, "", "session", "list", "--json")
	var l []struct{ Name, Folder string }
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil {
		t.Fatalf("session list: exit %d\n%s\n%s", code, out, errOut)
	}
	m := map[string]string{}
	for _, e := range l {
		m[e.Name] = e.Folder
	}
	return m
}

// TestEverySessionMadeInAFolderIsRecordedThere: the autosave /session new
// makes mid-REPL, an MCP mirror, and an MCP rename (which moves the
// record) all name the folder they were made in, so -c and the listing's
// folder filter find them.
func TestEverySessionMadeInAFolderIsRecordedThere(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if _, errOut, code := runAt(t, dir, env, "one\ntwo\n/session new\nthree\n"); code != 0 {
		t.Fatalf("REPL: %d %s", code, errOut)
	}
	here := recent.Folder(dir)
	autosaves := 0
	for name, folder := range foldersOf(t, env) {
		if strings.HasPrefix(name, "autosave-") {
			autosaves++
			if folder != here {
				t.Errorf("%s is recorded in %q, want %q", name, folder, here)
			}
		}
	}
	if autosaves != 2 {
		t.Fatalf("want the autosave of /session new and the one at exit: %v", foldersOf(t, env))
	}

	cmd := exec.Command(binary, "mcp-server")
	cmd.Dir, cmd.Env = dir, surfaceEnv(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "chatcli-e2e", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: exitWait}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s %v: %v %+v", name, args, err, res)
		}
	}
	call("chat", map[string]any{"prompt": "from mcp"})
	call("manage_session", map[string]any{"action": "save", "name": "before"})
	call("manage_session", map[string]any{"action": "rename", "name": "before", "new_name": "after"})
	folders := foldersOf(t, env)
	mirrors := 0
	for name, folder := range folders {
		if strings.HasPrefix(name, "mcp-") {
			mirrors++
			if folder != here {
				t.Errorf("mirror %s is recorded in %q, want %q", name, folder, here)
			}
		}
	}
	if mirrors != 1 || folders["after"] != here {
		t.Fatalf("the mirror and the renamed session are recorded in %s: %v", here, folders)
	}
	if _, ok := folders["before"]; ok {
		t.Fatalf("the old name is still listed: %v", folders)
	}
	entries, err := recent.Open(home).Read()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := entries["before"]; ok {
		t.Fatalf("the record keeps the old name: %v", entries)
	}
}
