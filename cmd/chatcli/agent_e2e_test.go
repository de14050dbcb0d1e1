package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// runDir starts the built binary in dir with env and no terminal, and
// returns stdout, stderr and the exit code.
func runDir(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	return runAt(t, dir, env, "", args...)
}

// goWorkspace is a scratch folder with two Go files of 3 and 5 lines and a
// text file.
func goWorkspace(t *testing.T) string {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.go"), []byte("package a\n\nfunc B() int {\n\treturn 2\n}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("not go\n"), 0o644)
	return ws
}

func toolNames(req scriptRequest) []string {
	var out []string
	for _, tl := range req.Tools {
		out = append(out, tl.Function.Name)
	}
	slices.Sort(out)
	return out
}

func TestEndToEndAgentCountsLines(t *testing.T) {
	ws := goWorkspace(t)
	task := "list the Go files and count their lines"
	answer := "a.go has 3 lines and b.go has 5 (8 in all)."
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"call_wc", "run_command", map[string]string{"command": "wc -l *.go"}}}},
		{Text: answer},
	}, func(i int, req scriptRequest) {
		if got := strings.Join(toolNames(req), ","); got != "list_dir,read_file,run_command,search_files" {
			t.Errorf("agent mode offers %s", got)
		}
		if i == 1 {
			r := req.toolResults()["call_wc"]
			for _, want := range []string{"3 a.go", "5 b.go", "8 total"} {
				if !strings.Contains(r, want) {
					t.Errorf("the result under call_wc lacks %q: %q (all results %q)", want, r, req.toolResults())
				}
			}
		}
	})
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	start := time.Now()
	out, errOut, code := runDir(t, ws, env, "-p", task, "--agent", "--agent-auto-exec")
	t.Logf("agent run: %v", time.Since(start))
	if code != 0 || out != answer+"\n" {
		t.Fatalf("exit %d, stdout %q\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "[tool] run_command") || !strings.Contains(lines[0], ": ok") {
		t.Errorf("stderr should be one tool line:\n%s", errOut)
	}
}

func TestEndToEndAgentAsksBeforeCommandsOnly(t *testing.T) {
	ws := goWorkspace(t)
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"c_ls", "list_dir", map[string]string{}}, {"c_read", "read_file", map[string]string{"path": "b.go"}},
			{"c_wc", "run_command", map[string]string{"command": "wc -l *.go > counted.txt"}}}},
		{Text: "I could not run wc."},
	}, func(i int, req scriptRequest) {
		if i != 1 {
			return
		}
		r := req.toolResults()
		if !strings.Contains(r["c_ls"], "a.go") || !strings.Contains(r["c_ls"], "notes.txt") || !strings.Contains(r["c_read"], "return 2") {
			t.Errorf("read-only tools must run without asking: %q", r)
		}
		if !strings.Contains(r["c_wc"], "input is not a terminal") || !strings.Contains(r["c_wc"], "--agent-auto-exec") {
			t.Errorf("the model is not told why the command was refused: %q", r["c_wc"])
		}
	})
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := runDir(t, ws, env, "-p", "count the lines", "--agent")
	if code != 0 || out != "I could not run wc.\n" {
		t.Fatalf("exit %d, stdout %q\nstderr:\n%s", code, out, errOut)
	}
	if n := strings.Count(errOut, "[tool] "); n != 3 || !strings.Contains(errOut, "refused") {
		t.Errorf("stderr (want 3 tool lines, the last refused):\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "counted.txt")); err == nil {
		t.Error("the refused command ran")
	}
}

func TestEndToEndSessionRewindCode(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	turn := func(path, content string) {
		srv := scriptServer(t, []scriptReply{
			{Calls: []scriptCall{{"w", "write_file", map[string]string{"path": path, "content": content}}}},
			{Text: "wrote " + path},
		}, nil)
		env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
		out, errOut, code := runDir(t, ws, env, "-p", "write "+path, "--coder", "--agent-auto-exec", "--session", "job")
		if code != 0 || out != "wrote "+path+"\n" {
			t.Fatalf("exit %d, stdout %q\nstderr:\n%s", code, out, errOut)
		}
	}
	turn("hello.txt", "hello\n")
	turn("pkg/world.go", "package pkg\n")
	env := []string{"CHATCLI_HOME=" + home}
	out, _, _ := runDir(t, ws, env, "session", "rewind", "job", "--list")
	if strings.Count(out, "+code") != 2 {
		t.Errorf("--list should mark both checkpoints +code:\n%s", out)
	}
	// Elsewhere the file checkpoint is unknown: refused, nothing changed.
	_, errOut, code := runDir(t, t.TempDir(), env, "session", "rewind", "job", "--to", "1", "--code")
	t.Logf("elsewhere: %s", errOut)
	if code == 0 || !strings.Contains(errOut, "another workspace") {
		t.Errorf("rewind --code in another folder: exit %d\n%s", code, errOut)
	}
	out, errOut, code = runDir(t, ws, env, "session", "rewind", "job", "--to", "1", "--code")
	t.Logf("rewind:\n%s", out)
	if code != 0 || !strings.Contains(out, "remove          pkg/world.go") || !strings.Contains(out, "Rewound to") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "pkg")); err == nil {
		t.Error("pkg/ written by the second turn is still there")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "hello.txt")); string(b) != "hello\n" {
		t.Errorf("hello.txt (first turn) = %q", b)
	}
	out, _, _ = runDir(t, ws, env, "session", "show", "job", "--json")
	_, hist, _ := strings.Cut(out, `"chat_history"`)
	hist, _, _ = strings.Cut(hist, `"checkpoints"`) // the checkpoints follow the messages
	if strings.Contains(hist, "pkg/world.go") || !strings.Contains(hist, "hello.txt") {
		t.Errorf("the conversation was not rewound to before the second turn:\n%s", out)
	}
	if out, _, code := runDir(t, ws, env, "session", "rewind", "--help"); code != 0 || !strings.Contains(out, "--code-only") {
		t.Errorf("--help does not document --code-only:\n%s", out)
	}
}
