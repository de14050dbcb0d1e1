//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/shadow"
)

// hangAfter is how long one command may take against a hostile store
// before the test takes it for a hang.
const hangAfter = 15 * time.Second

// oldTrashFile is a file name in the trash layout, trashed long ago: prune
// would delete it from a real trash folder.
const oldTrashFile = "gone.20200101-000000.json"

// hostilePlace is a store path where something that is not a regular
// file can be planted.
type hostilePlace struct {
	name string
	// path is the place in home, for the session demo's transcript id and
	// the workspace ws of the file checkpoints (coderFixture).
	path func(home, id, ws string) string
	dir  bool // a folder of the store (a link to a folder elsewhere is then planted)
	// checkpoints: the store gets file checkpoints first (coderFixture),
	// and the verbs that use them run too (checkpointVerbs).
	checkpoints bool
}

var hostilePlaces = []hostilePlace{
	{"session file", func(h, _, _ string) string { return filepath.Join(h, "sessions", "bad.json") }, false, false},
	{"journal", func(h, id, _ string) string { return filepath.Join(h, "transcripts", id+".jsonl") }, false, false},
	{"lock", func(h, _, _ string) string { return filepath.Join(h, "locks", "demo.lock") }, false, false},
	{"open marker", func(h, _, _ string) string { return filepath.Join(h, "locks", "demo.open") }, false, false},
	{"older build's lock", func(h, _, _ string) string { return filepath.Join(h, "sessions", ".demo.lock") }, false, false},
	{"older build's open marker", func(h, _, _ string) string { return filepath.Join(h, "sessions", ".demo.open") }, false, false},
	{"history", func(h, _, _ string) string { return filepath.Join(h, "history") }, false, false},
	{"trash", func(h, _, _ string) string { return filepath.Join(h, "trash") }, true, false},
	{"locks", func(h, _, _ string) string { return filepath.Join(h, "locks") }, true, false},
	{"search index folder", func(h, _, _ string) string { return filepath.Join(h, "index") }, true, false},
	{"checkpoints folder", func(h, _, _ string) string { return shadow.Dir(h) }, true, true},
	{"checkpoint repository", func(h, _, ws string) string { return shadow.RepoDir(h, ws) }, true, true},
	{"checkpoint git folder", func(h, _, ws string) string { return filepath.Join(shadow.RepoDir(h, ws), "git") }, true, true},
	{"checkpoint state", func(h, _, ws string) string { return filepath.Join(shadow.RepoDir(h, ws), "state") }, false, true},
}

// hostileKinds plant, at path p, what a store must never open, write or
// delete through; outside is a folder out of the store holding the file
// "outside" and a trash-like file.
var hostileKinds = map[string]func(p, outside string) error{
	"named pipe":        func(p, _ string) error { return syscall.Mkfifo(p, 0o600) },
	"link to /dev/zero": func(p, _ string) error { return os.Symlink("/dev/zero", p) },
	"link loop":         func(p, _ string) error { return os.Symlink(filepath.Base(p), p) },
	"folder":            func(p, _ string) error { return os.Mkdir(p, 0o700) },
	"link outside": func(p, outside string) error {
		return os.Symlink(filepath.Join(outside, "outside"), p)
	},
}

// hostileStore is a store with session demo (two turns, a journal) and a
// trashed session, and a folder outside it; it returns the environment,
// the home, demo's transcript id and the outside folder.
func hostileStore(t *testing.T) (env []string, home, id, outside string) {
	t.Helper()
	home, outside = t.TempDir(), t.TempDir()
	env = []string{"CHATCLI_HOME=" + home}
	for _, args := range [][]string{{"-p", "first words", "--session", "demo"}, {"-p", "more words", "--session", "demo"},
		{"-p", "doomed", "--session", "old"}, {"session", "delete", "old", "--yes"}} {
		if _, stderr, code := run(t, env, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	var doc struct {
		TranscriptID string `json:"transcript_id"`
	}
	data, err := os.ReadFile(filepath.Join(home, "sessions", "demo.json"))
	if err == nil {
		err = json.Unmarshal(data, &doc)
	}
	if err != nil || doc.TranscriptID == "" {
		t.Fatalf("demo's transcript id: %v", err)
	}
	for name, text := range map[string]string{"outside": "outside the store\n", oldTrashFile: `{"version":2,"chat_history":[]}`} {
		if err := os.WriteFile(filepath.Join(outside, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(outside, oldTrashFile), old, old); err != nil {
		t.Fatal(err)
	}
	return env, home, doc.TranscriptID, outside
}

// snapshotDir is every file under dir with its bytes.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(data)
	}
	return out
}

// runBounded runs chatcli with args and stdin, failing the test when it
// has not exited within hangAfter or when it panicked.
func runBounded(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runBoundedIn(t, "", env, stdin, args...)
}

// runBoundedIn is runBounded in the folder dir.
func runBoundedIn(t *testing.T, dir string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("chatcli %s: still running after %v (a hang)\n%s", strings.Join(args, " "), hangAfter, errb.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errb.String(), "panic:") || strings.Contains(errb.String(), "goroutine ") {
		t.Fatalf("chatcli %s panicked:\n%s", strings.Join(args, " "), errb.String())
	}
	return out.String(), errb.String(), code
}

// hostileVerbs is every headless verb that reads or writes the store.
var hostileVerbs = [][]string{
	{"session", "list"}, {"session", "list", "--json"}, {"session", "show", "demo"}, {"session", "show", "bad"},
	{"session", "show", "demo", "--json"}, {"-p", "again", "--session", "demo"}, {"-p", "new", "--session", "bad"},
	{"session", "search", "words"}, {"session", "transcript", "show", "demo"}, {"storage"}, {"storage", "verify"},
	{"storage", "prune"}, {"storage", "prune", "--apply"}, {"session", "trash"}, {"session", "restore", "old"},
}

// TestNoVerbHangsOrEscapesOnAHostileStore plants a FIFO, a link to
// /dev/zero, a link loop, a folder and a link out of the store at each
// store location, then runs every verb, a script-mode REPL and both
// servers: each must answer within hangAfter, without a panic, and
// nothing outside the store may change.
func TestNoVerbHangsOrEscapesOnAHostileStore(t *testing.T) {
	kinds := make([]string, 0, len(hostileKinds))
	for k := range hostileKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, place := range hostilePlaces {
		for _, kind := range kinds {
			t.Run(place.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				env, home, id, outside := hostileStore(t)
				ws := ""
				if place.checkpoints {
					ws = coderFixture(t, env)
				}
				p := place.path(home, id, ws)
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				target := outside
				if place.dir && kind == "link outside" {
					if err := os.Symlink(outside, p); err != nil { // a trash folder elsewhere
						t.Fatal(err)
					}
				} else if err := hostileKinds[kind](p, target); err != nil {
					t.Fatal(err)
				}
				before := snapshotDir(t, outside)
				for _, args := range hostileVerbs {
					stdout, stderr, code := runBounded(t, env, "", args...)
					checkHostileVerb(t, place, kind, args, stdout, stderr, code)
				}
				runBounded(t, env, "hello there\n/session save demo\n")
				if place.checkpoints {
					checkpointVerbs(t, env, ws)
				}
				hostileServers(t, env)
				if after := snapshotDir(t, outside); !equalMaps(before, after) {
					t.Errorf("the folder outside the store changed:\nbefore %q\nafter  %q", before, after)
				}
				if fi, err := os.Lstat(p); err != nil || fi.Mode().IsRegular() && kind != "folder" {
					t.Errorf("%s: what was planted at %s is gone or replaced (%v)", place.name, p, err)
				}
			})
		}
	}
}

// checkHostileVerb checks what one verb said about a planted entry: the
// listing names it as not a regular file, and show refuses it with the
// data exit status.
func checkHostileVerb(t *testing.T, place hostilePlace, kind string, args []string, stdout, stderr string, code int) {
	t.Helper()
	if place.name != "session file" {
		return
	}
	verb := strings.Join(args, " ")
	switch verb {
	case "session list", "session list --json":
		if code != 0 || !strings.Contains(stdout, "bad") || !strings.Contains(stdout, "not a regular file") {
			t.Errorf("%s with a %s at bad.json: exit %d, want bad listed as not a regular file:\n%s%s", verb, kind, code, stdout, stderr)
		}
	case "session show bad":
		if code != exitData || !strings.Contains(stderr, "bad.json") || !strings.Contains(stderr, "not a regular file") {
			t.Errorf("%s with a %s at bad.json: exit %d, want %d naming the file as not a regular file:\n%s", verb, kind, code, exitData, stderr)
		}
	}
}

// hostileServers drives mcp-server (list, search, a chat turn on demo) and
// acp (a new session and a turn, then loading demo), each call bounded.
func hostileServers(t *testing.T, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	m := startMCP(t, env)
	for _, args := range []map[string]any{{"action": "list"}, {"action": "search", "query": "words"}, {"action": "load", "name": "demo"}} {
		if _, err := m.cs.CallTool(ctx, &mcp.CallToolParams{Name: "manage_session", Arguments: args}); err != nil {
			t.Errorf("mcp-server manage_session %v: %v", args, err)
		}
	}
	m.chat(ctx, "from mcp", "demo")
	if ctx.Err() != nil {
		t.Fatalf("mcp-server: no answer within %v\n%s", hangAfter, m.stderr.String())
	}
	// With the locks folder planted nothing can be saved, and the server
	// says so by its exit status (exitData), naming what is there.
	if stderr, err := m.shutdown(); err != nil && !(strings.Contains(stderr, "not a regular file") && strings.Contains(err.Error(), "exit status 4")) {
		t.Errorf("mcp-server: %v\n%s", err, stderr)
	}
	a := startACP(t, env)
	if s, err := a.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}}); err == nil {
		a.turn(ctx, s.SessionId, "from acp")
	}
	a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "demo", Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if ctx.Err() != nil {
		t.Fatalf("acp: no answer within %v\n%s", hangAfter, a.stderr.String())
	}
	if stderr, err := a.shutdown(); err != nil {
		t.Errorf("acp: %v\n%s", err, stderr)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
