package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// runIn runs chatcli in-process with ws as the workspace of the real
// tools and file checkpoints, stdin not a terminal.
func runIn(t *testing.T, env map[string]string, ws string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &out, Err: &errb},
		getenv: func(k string) string { return env[k] }, workdir: ws}
	defer f.close()
	cmd := newRootCmd(f, nil)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

// coderScript is three coder turns: edit a.go; create b.go and dir/c.go;
// run `touch x.txt` and edit b.go.
var coderScript = [][]scriptReply{
	{{Calls: []scriptCall{{"e1", "edit_file", map[string]string{"path": "a.go", "old_string": "package a", "new_string": "package a // turn 1"}}}},
		{Text: "a.go edited"}},
	{{Calls: []scriptCall{{"w1", "write_file", map[string]string{"path": "b.go", "content": "package b\n"}},
		{"w2", "write_file", map[string]string{"path": "dir/c.go", "content": "package dir\n"}}}},
		{Text: "b.go and dir/c.go written"}},
	{{Calls: []scriptCall{{"r1", "run_command", map[string]string{"command": "touch x.txt"}},
		{"e2", "edit_file", map[string]string{"path": "b.go", "old_string": "package b", "new_string": "package b // turn 3"}}}},
		{Text: "done"}},
}

func loadHistory(t *testing.T, home, name string) []message.Message {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return s.History
}

func readOr(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestCoderTurnsRewindWithCode(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	orig := "package a\n\nfunc A() int { return 1 }\n"
	os.WriteFile(filepath.Join(ws, "a.go"), []byte(orig), 0o644)
	var afterTurn1 []message.Message
	var aAfterTurn1 string
	for i, replies := range coderScript {
		srv := scriptServer(t, replies, func(k int, req scriptRequest) {
			for id, res := range req.toolResults() {
				if strings.HasPrefix(res, "error") {
					t.Errorf("turn %d: tool %s failed: %s", i+1, id, res)
				}
			}
		})
		env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
		out, errOut, err := runIn(t, env, ws, "-p", "turn", "--coder", "--agent-auto-exec", "--session", "work")
		if err != nil || out != replies[1].Text+"\n" {
			t.Fatalf("turn %d: %v %q\n%s", i+1, err, out, errOut)
		}
		if i == 0 {
			afterTurn1, aAfterTurn1 = loadHistory(t, home, "work"), readOr(filepath.Join(ws, "a.go"))
		}
	}
	if got := readOr(filepath.Join(ws, "b.go")); got != "package b // turn 3\n" {
		t.Fatalf("b.go after turn 3: %q", got)
	}
	os.WriteFile(filepath.Join(ws, "b.go"), []byte("package b // mine\n"), 0o644) // a hand edit
	env := map[string]string{"CHATCLI_HOME": home}

	// Checkpoint 2 (before turn 2), no terminal: the hand-edited b.go stays.
	out, errOut, err := runIn(t, env, ws, "session", "rewind", "work", "--to", "2", "--code")
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	for _, want := range []string{"remove          b.go (changed by hand since)", "remove          dir/c.go", "not undoable: ",
		"touch x.txt", "Left alone: b.go", "--yes", "Rewound to"} {
		if !strings.Contains(out, want) {
			t.Errorf("rewind output lacks %q:\n%s", want, out)
		}
	}
	if got := readOr(filepath.Join(ws, "b.go")); got != "package b // mine\n" {
		t.Errorf("hand-edited b.go overwritten without consent: %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "dir")); err == nil {
		t.Error("dir/ (created by turn 2) is still there")
	}
	if _, err := os.Stat(filepath.Join(ws, "x.txt")); err != nil {
		t.Error("x.txt (made by a command) should remain: commands are not undone")
	}
	if got := readOr(filepath.Join(ws, "a.go")); got != aAfterTurn1 {
		t.Errorf("a.go = %q, want it as after turn 1 %q", got, aAfterTurn1)
	}
	if h := loadHistory(t, home, "work"); !slices.Equal(journal.HashHistory(h), journal.HashHistory(afterTurn1)) {
		t.Errorf("conversation not back at checkpoint 2: %d messages, want %d", len(h), len(afterTurn1))
	}

	// With a person saying yes at the terminal, b.go goes too.
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}},
		getenv: func(k string) string { return env[k] }, workdir: ws}
	defer f.close()
	c, _ := f.config("", "")
	e, err := f.engine(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Load("work"); err != nil {
		t.Fatal(err)
	}
	var asked []string
	var buf bytes.Buffer
	cenv := &command.Env{Engine: e, Out: &buf, Interactive: true,
		Confirm: func(q string) bool { asked = append(asked, q); return true }}
	if err := command.RewindTo(context.Background(), cenv, 1, command.ScopeCode, false); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "b.go was changed by hand") {
		t.Errorf("questions: %q", asked)
	}
	if _, err := os.Stat(filepath.Join(ws, "b.go")); err == nil {
		t.Errorf("b.go kept after the person agreed:\n%s", buf.String())
	}

	// Back to the first checkpoint (before turn 1) with --yes: a.go, edited
	// by hand meanwhile, gets its original bytes.
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a // mine too\n"), 0o644)
	out, errOut, err = runIn(t, env, ws, "session", "rewind", "work", "--to", "2", "--code", "--yes")
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	if got := readOr(filepath.Join(ws, "a.go")); got != orig {
		t.Errorf("a.go = %q, want the original bytes\n%s", got, out)
	}
	if h := loadHistory(t, home, "work"); len(h) > 1 || len(h) == 1 && h[0].Role != message.RoleSystem {
		t.Errorf("conversation at the first checkpoint has %d messages", len(h))
	}
}

func TestRewindCodeRefusals(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	srv := scriptServer(t, []scriptReply{{Text: "hi"}}, nil)
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	if _, errOut, err := runIn(t, env, ws, "-p", "hello", "--session", "plain"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	_, _, err := runIn(t, env, ws, "session", "rewind", "plain", "--to", "1", "--code")
	if err == nil || !strings.Contains(err.Error(), "chat mode") || !strings.Contains(err.Error(), "nothing to restore") {
		t.Errorf("a chat checkpoint: %v", err)
	}
	if _, _, err := runIn(t, env, ws, "session", "rewind", "plain", "--to", "1", "--code", "--code-only"); err == nil {
		t.Error("--code with --code-only accepted")
	}
}

func TestToolsWorkWithoutGitAfterOneNotice(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	t.Setenv("PATH", t.TempDir()) // no git
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"w", "write_file", map[string]string{"path": "n.txt", "content": "x"}}}},
		{Text: "ok"},
	}, nil)
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	out, errOut, err := runIn(t, env, ws, "-p", "write", "--coder", "--agent-auto-exec", "--session", "ng")
	if err != nil || out != "ok\n" {
		t.Fatalf("%v %q\n%s", err, out, errOut)
	}
	if strings.Count(errOut, "file checkpoints are off") != 1 || readOr(filepath.Join(ws, "n.txt")) != "x" {
		t.Errorf("stderr:\n%s", errOut)
	}
	_, _, err = runIn(t, env, ws, "session", "rewind", "ng", "--to", "1", "--code-only")
	if err == nil || !strings.Contains(err.Error(), "file checkpoints are off") {
		t.Errorf("rewind --code-only without git: %v", err)
	}
}

// A file checkpoint taken before any tool changed a file has the same id in
// every workspace; it is still refused in another folder.
func TestRewindCodeRefusesACheckpointOfAnotherWorkspace(t *testing.T) {
	home, wsA, wsB := t.TempDir(), t.TempDir(), t.TempDir()
	srv := scriptServer(t, []scriptReply{{Text: "nothing to change"}}, nil)
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	if _, errOut, err := runIn(t, env, wsA, "-p", "look around", "--coder", "--agent-auto-exec", "--session", "s"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	mine := filepath.Join(wsB, "mine.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runIn(t, env, wsB, "session", "rewind", "s", "--to", "1", "--code", "--yes")
	if err == nil || !strings.Contains(err.Error(), "another workspace ("+wsA) {
		t.Fatalf("rewind from another workspace: %v", err)
	}
	if got := readOr(mine); got != "mine" {
		t.Fatalf("a file of the other workspace changed: %q", got)
	}
}
