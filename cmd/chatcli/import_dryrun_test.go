package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeClaudeFile writes a Claude Code session file <file>.jsonl in dir:
// for each n of turns a user entry u<n> and an assistant entry a<n>, with
// sessionId session, chained by parentUuid from parent ("" for none), as
// Claude Code writes a conversation and, with a parent in another file,
// one it resumed.
func writeClaudeFile(t *testing.T, dir, file, session, parent string, turns ...int) {
	t.Helper()
	var b strings.Builder
	prev := parent
	for _, n := range turns {
		for _, e := range []struct{ typ, uuid, content string }{
			{"user", fmt.Sprintf("u%d", n), fmt.Sprintf(`"question %d"`, n)},
			{"assistant", fmt.Sprintf("a%d", n), fmt.Sprintf(`[{"type":"text","text":"answer %d"}]`, n)},
		} {
			p := "null"
			if prev != "" {
				p = `"` + prev + `"`
			}
			fmt.Fprintf(&b, `{"type":%q,"uuid":%q,"parentUuid":%s,"sessionId":%q,"cwd":"/w","timestamp":"2026-03-0%dT10:00:00Z","message":{"role":%q,"content":%s}}`+"\n",
				e.typ, e.uuid, p, session, n, e.typ, e.content)
			prev = e.uuid
		}
	}
	if err := os.WriteFile(filepath.Join(dir, file+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// `import --dry-run` reports what the real run then does, line for line:
// resumed conversations (one continuing the earlier file's last entry,
// one repeating the earlier entries under the earlier sessionId) extend
// the earlier conversation's session in both, whichever file comes first,
// and a later run's new, extended and unchanged conversations are counted
// alike.
func TestImportDryRunReportsWhatTheRunDoes(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home, "CHATCLI_HOME=" + filepath.Join(home, ".chatcli")}
	dir := filepath.Join(home, ".claude", "projects", "-w")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	const (
		first   = "cccccccc-0000-4000-8000-000000000001"
		resumed = "aaaaaaaa-0000-4000-8000-000000000002" // sorts, and is read, before the first
		repeats = "bbbbbbbb-0000-4000-8000-000000000003"
		other   = "dddddddd-0000-4000-8000-000000000004"
		later   = "00000000-0000-4000-8000-000000000005"
	)
	writeClaudeFile(t, dir, first, first, "", 1, 2)
	writeClaudeFile(t, dir, resumed, resumed, "a2", 3)
	writeClaudeFile(t, dir, repeats, first, "", 1, 2, 3, 4)
	writeClaudeFile(t, dir, other, other, "", 7)
	rounds := []struct {
		change func()
		want   string
	}{
		{func() {}, "4 conversations in 4 files: 2 new sessions, 2 updated, 0 unchanged, 10 messages written"},
		{func() {
			writeClaudeFile(t, dir, later, later, "a4", 5)     // resumed from the repeating file
			writeClaudeFile(t, dir, other, other, "", 7, 8, 9) // grown
		}, "5 conversations in 5 files: 0 new sessions, 2 updated, 3 unchanged, 6 messages written"},
		{func() {}, "5 conversations in 5 files: 0 new sessions, 0 updated, 5 unchanged, 0 messages written"},
	}
	for i, r := range rounds {
		r.change()
		dry, errOut, code := run(t, env, "", "import", "claude-code", "--dry-run")
		if code != 0 {
			t.Fatalf("round %d: dry run exit %d\n%s%s", i, code, dry, errOut)
		}
		real, errOut, code := run(t, env, "", "import", "claude-code")
		if code != 0 {
			t.Fatalf("round %d: import exit %d\n%s%s", i, code, real, errOut)
		}
		_, dryReport, _ := strings.Cut(dry, "would import (dry run) ")
		_, realReport, _ := strings.Cut(real, "imported ")
		if dryReport != realReport || !strings.Contains(realReport, r.want) {
			t.Errorf("round %d: the dry run said\n  %s the import did\n  %s want %s", i, dryReport, realReport, r.want)
		}
	}
	if list := mustRun(t, env, "", "session", "list"); strings.Count(list, "claude-") != 2 {
		t.Errorf("want 2 sessions:\n%s", list)
	}
}
