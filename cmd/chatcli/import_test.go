package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importHome is a home folder holding the fixtures where each tool keeps
// them, and the environment pointing chatcli at it.
func importHome(t *testing.T) (string, []string) {
	t.Helper()
	home := t.TempDir()
	copyInto := func(src, dir string) {
		data, err := os.ReadFile(filepath.Join("../../internal/importer/testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(home, dir)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, filepath.Base(src)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	copyInto("claude-code/55550000-0000-4000-8000-000000000001.jsonl", ".claude/projects/-workspace-example-app")
	copyInto("codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl", ".codex/sessions/2026/01/02")
	copyInto("gemini/session-2026-02-03T09-15-7c1e2f3a.json", ".gemini/tmp/test-project-hash/chats")
	return home, []string{"HOME=" + home, "CHATCLI_HOME=" + filepath.Join(home, ".chatcli")}
}

func TestImportCommandFromEachTool(t *testing.T) {
	home, env := importHome(t)
	for _, tool := range []string{"claude-code", "codex", "gemini"} {
		out, errOut, code := run(t, env, "", "import", tool)
		if code != 0 || !strings.Contains(out, "1 new session,") {
			t.Fatalf("import %s: exit %d\n%s%s", tool, code, out, errOut)
		}
		out, errOut, code = run(t, env, "", "import", tool)
		if code != 0 || !strings.Contains(out, "0 new sessions, 0 updated, 1 unchanged, 0 messages written") {
			t.Errorf("second import %s: exit %d\n%s%s", tool, code, out, errOut)
		}
	}
	export := filepath.Join(home, "export.json")
	data, _ := os.ReadFile("../../internal/importer/testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json")
	os.WriteFile(export, data, 0o600)
	if out, errOut, code := run(t, env, "", "import", "opencode", export); code != 0 || !strings.Contains(out, "1 new session,") {
		t.Fatalf("import opencode: exit %d\n%s%s", code, out, errOut)
	}
	list, _, _ := run(t, env, "", "session", "list")
	for _, name := range []string{"claude-give-me-a-tour-of-the-repository-its-00000001", "codex-list-the-synthetic-files-11111111", "gemini-greeting-and-a-failed-write-3e4f5a6b", "opencode-fix-the-login-bug-mn0pr5st"} {
		if !strings.Contains(list, name) {
			t.Errorf("session list lacks %s:\n%s", name, list)
		}
	}
	// An imported session continues like any other, and a later import
	// leaves what was said in chatcli in place.
	codexName := "codex-list-the-synthetic-files-11111111"
	mustRun(t, env, "", "-p", "and gamma.txt?", "--session", codexName)
	if out, errOut, code := run(t, env, "", "import", "codex"); code != 0 || !strings.Contains(out, "1 unchanged") {
		t.Errorf("import after continuing: exit %d\n%s%s", code, out, errOut)
	}
	if out := mustRun(t, env, "", "session", "show", codexName); !strings.Contains(out, "and gamma.txt?") || !strings.Contains(out, "alpha.txt and beta.txt") {
		t.Errorf("continued session:\n%s", out)
	}
	for query, want := range map[string]string{
		"column layout":        "claude-",
		"alpha.txt beta.txt":   "codex-",
		"Permission denied":    "gemini-",
		"passwords with space": "opencode-",
	} {
		out, errOut, code := run(t, env, "", "session", "search", query)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("session search %q: exit %d, want a %s session\n%s%s", query, code, want, out, errOut)
		}
	}
}

// Lines that cannot be read are named and skipped; a file that cannot be
// read fails alone, with exit status 1; --dry-run writes nothing.
func TestImportCommandBadInput(t *testing.T) {
	home, env := importHome(t)
	dir := filepath.Join(home, "mixed")
	os.MkdirAll(dir, 0o700)
	good := filepath.Join(dir, "s1.jsonl")
	os.WriteFile(good, []byte(`{"type":"user","sessionId":"s-0001","message":{"role":"user","content":"hello there"}}
{"type":"user","sessionId":"s-0001",
{"type":"assistant","sessionId":"s-0001","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hi"}]}}
`), 0o600)
	os.WriteFile(filepath.Join(dir, "s2.jsonl"), nil, 0o000)
	out, errOut, code := run(t, env, "", "import", "claude-code", "--dry-run", dir)
	if !strings.Contains(out, "would import") || !strings.Contains(errOut, good+":2: not JSON") {
		t.Errorf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, ".chatcli", "sessions")); err == nil {
		if names, _ := os.ReadDir(filepath.Join(home, ".chatcli", "sessions")); len(names) > 0 {
			t.Errorf("dry run wrote %v", names)
		}
	}
	out, errOut, code = run(t, env, "", "import", "claude-code", dir)
	if os.Geteuid() != 0 && (code != 1 || !strings.Contains(errOut, filepath.Join(dir, "s2.jsonl"))) {
		t.Errorf("unreadable file: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "1 new session,") || !strings.Contains(out, "1 line skipped") {
		t.Errorf("summary: %s", out)
	}
	if _, errOut, code := run(t, env, "", "import", "vscode"); code != 2 || !strings.Contains(errOut, "claude-code, codex, gemini, opencode") {
		t.Errorf("unknown tool: exit %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "import", "opencode"); code == 0 || !strings.Contains(errOut, "opencode export") {
		t.Errorf("opencode without a file: exit %d %s", code, errOut)
	}
}

// Progress shows on a terminal's stderr for many files, and lines said
// meanwhile clear it first; off a terminal nothing is shown.
func TestImportProgress(t *testing.T) {
	var errb strings.Builder
	p := newImportProgress(&ioStreams{Err: &errb, ErrTTY: true}, 40)
	p.show(3)
	p.say("import: %s", "x.jsonl:2: not JSON")
	p.clear()
	if got := errb.String(); got != "\rimport: 3/40 files\r\033[Kimport: x.jsonl:2: not JSON\n" {
		t.Errorf("terminal output %q", got)
	}
	errb.Reset()
	p = newImportProgress(&ioStreams{Err: &errb}, 40)
	p.show(3)
	p.clear()
	if errb.Len() != 0 {
		t.Errorf("off a terminal: %q", errb.String())
	}
}
