package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// damagedTailStore builds, through the REPL on a pipe, session j whose
// file covers its first turn only: `one …`, /session save j, then two,
// three and four, and the REPL killed with SIGKILL before it refreshes
// the file. Line 4 of the journal, the reply to "two", is then
// overwritten with 500 NUL bytes, its newline kept (case dur-2). It
// returns the store and the journal's path.
func damagedTailStore(t *testing.T) (home, journalPath string) {
	t.Helper()
	home = t.TempDir()
	p := startREPL(t, []string{"CHATCLI_HOME=" + home})
	p.say(t, "one hello", "reply #1 to: one hello")
	p.say(t, "/session save j", `session "j"`)
	p.say(t, "two", "reply #2 to: two")
	p.say(t, "three", "reply #3 to: three")
	p.say(t, "four", "reply #4 to: four")
	files, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("journals: %v", files)
	}
	journalPath = files[0]
	var lines [][]byte
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(journalPath)
		if err != nil {
			t.Fatal(err)
		}
		if lines = bytes.SplitAfter(data, []byte("\n")); len(lines) == 9 && len(lines[8]) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the journal holds %d lines, want 8:\n%s", len(lines), data)
		}
	}
	p.cmd.Process.Kill() // SIGKILL: the file is not refreshed at exit
	p.cmd.Wait()
	if !bytes.Contains(lines[3], []byte("reply #2 to: two")) {
		t.Fatalf("journal line 4 is not the reply to two: %s", lines[3])
	}
	lines[3] = append(bytes.Repeat([]byte{0}, 500), '\n')
	if err := os.WriteFile(journalPath, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, journalPath
}

// copyStore copies the store at home into a new folder and returns it,
// with the path there of the journal at journalPath.
func copyStore(t *testing.T, home, journalPath string) (string, string) {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, path)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(home, journalPath)
	return dst, filepath.Join(dst, rel)
}

// TestDamagedJournalLineIsSaidOnEveryRead: every read of session j that
// replays its journal's tail over its file (case dur-2: line 4 of the
// journal is 500 NUL bytes) names the journal and line 4 in a warning on
// stderr, in the reader's language, and still reads lines 5 to 7: the
// reply to "three" and the last turn.
func TestDamagedJournalLineIsSaidOnEveryRead(t *testing.T) {
	base, baseJournal := damagedTailStore(t)
	later := []string{"[offline] reply #3 to: three", "[offline] reply #4 to: four"}
	for _, lang := range []string{"en", "pt-BR"} {
		t.Run(lang, func(t *testing.T) {
			damagedTailReads(t, base, baseJournal, lang, later)
		})
	}
}

// damagedTailReads runs each read of the damaged store under
// CHATCLI_LANG=lang, each on its own copy of the store.
func damagedTailReads(t *testing.T, base, baseJournal, lang string, later []string) {
	fresh := func(t *testing.T) ([]string, string, string) {
		home, j := copyStore(t, base, baseJournal)
		return []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, home, j
	}
	said := func(j string) string {
		if lang == "en" {
			return j + ":4: skipped a damaged line (500 NUL bytes)"
		}
		return j + ":4: linha danificada pulada (500 bytes NUL)"
	}
	warning := "warning: "
	if lang != "en" {
		warning = "aviso: "
	}
	hasAll := func(t *testing.T, what, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q missing from:\n%s", what, w, text)
			}
		}
	}

	t.Run("session show", func(t *testing.T) {
		env, _, j := fresh(t)
		out, errOut := runOK(t, "", env, "", "session", "show", "j")
		hasAll(t, "stderr", errOut, warning+said(j)+"\n")
		hasAll(t, "stdout", out, later...)
	})
	t.Run("session show --json", func(t *testing.T) {
		env, _, j := fresh(t)
		out, errOut := runOK(t, "", env, "", "session", "show", "j", "--json")
		hasAll(t, "stderr", errOut, warning+said(j)+"\n")
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, out)
		}
		hasAll(t, "stdout", out, later...)
	})
	t.Run("session list", func(t *testing.T) {
		env, _, j := fresh(t)
		out, errOut := runOK(t, "", env, "", "session", "list")
		session := "session j: "
		if lang != "en" {
			session = "sessão j: "
		}
		if w := warning + session + said(j) + "\n"; errOut != w {
			t.Errorf("stderr %q, want %q", errOut, w)
		}
		hasAll(t, "stdout", out, "j  ")
		out, errOut = runOK(t, "", env, "", "session", "list", "--json")
		if w := warning + session + said(j) + "\n"; errOut != w {
			t.Errorf("--json: stderr %q, want %q", errOut, w)
		}
		var heads []struct {
			Name     string
			Messages int
		}
		if err := json.Unmarshal([]byte(out), &heads); err != nil || len(heads) != 1 || heads[0].Messages != 7 {
			t.Errorf("--json: %v\n%s", err, out)
		}
	})
	t.Run("/session show and /session list", func(t *testing.T) {
		env, _, j := fresh(t)
		out, errOut := runOK(t, "", env, "/session show j\n/session list\n")
		session := "session j: "
		if lang != "en" {
			session = "sessão j: "
		}
		hasAll(t, "stderr", errOut, warning+said(j)+"\n", warning+session+said(j)+"\n")
		hasAll(t, "stdout", out, later...)
	})
	t.Run("session fork", func(t *testing.T) {
		env, _, j := fresh(t)
		_, errOut := runOK(t, "", env, "", "session", "fork", "j", "k")
		hasAll(t, "stderr", errOut, said(j))
		out, _, _ := run(t, env, "", "session", "show", "k")
		hasAll(t, "the fork", out, later...)
	})
	t.Run("session search", func(t *testing.T) {
		env, _, j := fresh(t)
		out, errOut := runOK(t, "", env, "", "session", "search", "four")
		hasAll(t, "stderr", errOut, said(j))
		hasAll(t, "stdout", out, "four")
	})
	t.Run("MCP load", func(t *testing.T) {
		env, _, j := fresh(t)
		m := startMCP(t, env)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := m.cs.CallTool(ctx, &mcp.CallToolParams{Name: "manage_session", Arguments: map[string]any{"action": "load", "name": "j"}})
		if err != nil || res.IsError {
			t.Fatalf("load: %v %+v\n%s", err, res, m.close(t))
		}
		out, err := m.chat(ctx, "five", "")
		if err != nil {
			t.Fatalf("chat: %v", err)
		}
		errOut := m.close(t)
		hasAll(t, "stderr", errOut, said(j))
		if out.Messages < 9 {
			t.Errorf("after the load and one turn: %d messages, want 9 or more", out.Messages)
		}
	})
	t.Run("MCP list", func(t *testing.T) {
		env, _, j := fresh(t)
		m := startMCP(t, env)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := m.cs.CallTool(ctx, &mcp.CallToolParams{Name: "manage_session", Arguments: map[string]any{"action": "list"}})
		if err != nil || res.IsError {
			t.Fatalf("list: %v %+v\n%s", err, res, m.close(t))
		}
		hasAll(t, "stderr", m.close(t), said(j))
	})
	t.Run("ACP list", func(t *testing.T) {
		env, _, j := fresh(t)
		a := startACP(t, env)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := a.conn.ListSessions(ctx, acp.ListSessionsRequest{}); err != nil {
			t.Fatalf("session/list: %v\n%s", err, a.close(t))
		}
		hasAll(t, "stderr", a.close(t), said(j))
	})
	t.Run("ACP load", func(t *testing.T) {
		env, _, j := fresh(t)
		a := startACP(t, env)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "j", Cwd: t.TempDir(), McpServers: []acp.McpServer{}}); err != nil {
			t.Fatalf("session/load: %v\n%s", err, a.close(t))
		}
		replayed := strings.Join(a.client.take(), "\n")
		errOut := a.close(t)
		hasAll(t, "stderr", errOut, said(j))
		hasAll(t, "replay", replayed, later...)
	})
}
