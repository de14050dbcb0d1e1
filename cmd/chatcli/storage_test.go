package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// oldStore fills home with sessions whose stored updated_at is in the past:
// an ancient named session, an expired autosave, a recent one, an orphan
// journal and a leftover temp file, all with current file mtimes except the
// journal and the temp file (which are judged by mtime).
func oldStore(t *testing.T, home string) (orphan string) {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	save := func(name string, updated time.Time) {
		st.SetClock(func() time.Time { return updated })
		s := &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "hi " + name}, {Role: message.RoleAssistant, Content: "yo"}}}
		if err := st.Save(name, s); err != nil {
			t.Fatal(err)
		}
	}
	save("notes", time.Now().AddDate(-2, 0, 0))
	save("autosave-20250101-120000", time.Now().AddDate(0, 0, -100))
	save("autosave-20270101-120000", time.Now().Add(-time.Hour))
	old := time.Now().AddDate(0, 0, -100)
	orphan = filepath.Join(home, "transcripts", strings.Repeat("ab", 16)+".jsonl")
	tmp := filepath.Join(home, "sessions", ".notes.json.tmp-42")
	for _, p := range []string{orphan, tmp} {
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("{}\n"), 0o600)
		os.Chtimes(p, old, old)
	}
	return orphan
}

func TestStoragePruneApplyForCron(t *testing.T) {
	home := t.TempDir()
	orphan := oldStore(t, home)
	env := []string{"CHATCLI_HOME=" + home}

	out, errOut, code := run(t, env, "", "storage")
	if code != 0 {
		t.Fatalf("storage: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"sessions you named", "sessions autosave-", "sessions mcp-", "transcripts", "input history", "trash", "temp files", "other files", "never removed automatically"} {
		if !strings.Contains(out, want) {
			t.Errorf("storage report lacks %q:\n%s", want, out)
		}
	}

	out, _, code = run(t, env, "", "storage", "prune")
	if code != 0 || !strings.Contains(out, "TTL: 1") || !strings.Contains(out, "orphan journal: 1") ||
		!strings.Contains(out, "leftover temp file: 1") || !strings.Contains(out, "--apply") {
		t.Fatalf("dry run (exit %d):\n%s", code, out)
	}
	if _, err := os.Stat(orphan); err != nil {
		t.Fatal("a dry run removed something")
	}

	out, errOut, code = run(t, env, "", "storage", "prune", "--apply")
	if code != 0 || !strings.Contains(out, "moved 1 machine-made session to the trash") || errOut != "" {
		t.Fatalf("apply (exit %d):\n%s\n%s", code, out, errOut)
	}
	sessions, _ := filepath.Glob(filepath.Join(home, "sessions", "*.json"))
	if len(sessions) != 2 {
		t.Fatalf("sessions left: %v", sessions)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatal("orphan journal kept")
	}

	// Nothing left to do: exit 0, and --quiet prints nothing.
	out, errOut, code = run(t, env, "", "storage", "prune", "--apply", "--quiet")
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("second run (exit %d): %q %q", code, out, errOut)
	}
	out, _, code = run(t, env, "", "storage", "prune", "--apply")
	if code != 0 || !strings.Contains(out, "Nothing removed.") {
		t.Fatalf("second run (exit %d): %q", code, out)
	}

	// The trashed autosave comes back.
	out, errOut, code = run(t, env, "", "session", "restore", "autosave-20250101-120000")
	if code != 0 || !strings.Contains(out, "Restored session") {
		t.Fatalf("restore (exit %d): %s %s", code, out, errOut)
	}
	_, errOut, code = run(t, env, "", "session", "restore", "autosave-20250101-120000")
	if code != exitNotFound {
		t.Fatalf("restore again: exit %d %s", code, errOut)
	}
}

func TestSessionDeleteGoesThroughTheTrash(t *testing.T) {
	home := t.TempDir()
	oldStore(t, home)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_SESSION_TTL=0"} // no removal by the REPL's pass
	path := filepath.Join(home, "sessions", "notes.json")
	before, _ := os.ReadFile(path)
	out, errOut, code := run(t, env, "", "session", "delete", "notes", "--yes")
	if code != 0 || !strings.Contains(out, "moved to the trash; `chatcli session restore notes` brings it back") {
		t.Fatalf("delete (exit %d): %s %s", code, out, errOut)
	}
	// In the REPL too.
	run(t, env, "", "-p", "x", "--session", "notes")
	out, _, code = run(t, env, "/session delete notes --yes\n")
	if code != 0 || !strings.Contains(out, "moved to the trash") {
		t.Fatalf("/session delete (exit %d): %s", code, out)
	}
	trashed, _ := filepath.Glob(filepath.Join(home, "trash", "notes.*.json"))
	if len(trashed) != 2 {
		t.Fatalf("trash: %v", trashed)
	}
	// Restore brings the newest copy: the one the -p turn wrote.
	if _, errOut, code := run(t, env, "", "session", "restore", "notes"); code != 0 {
		t.Fatal(errOut)
	}
	if got, _ := os.ReadFile(path); bytes.Equal(got, before) || !bytes.Contains(got, []byte(`"x"`)) {
		t.Fatalf("restored the wrong copy:\n%s", got)
	}
	os.Remove(path)
	run(t, env, "", "session", "restore", "notes")
	if got, _ := os.ReadFile(path); !bytes.Equal(got, before) {
		t.Fatal("the first trashed copy is not byte-identical")
	}
	// --empty-trash deletes what is left; --json says what.
	out, _, code = run(t, env, "", "storage", "prune", "--empty-trash", "--apply", "--json")
	var res struct {
		Emptied []string `json:"trash_emptied"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Emptied) != 0 {
		t.Fatalf("empty trash (exit %d): %s", code, out)
	}
	run(t, env, "", "session", "delete", "notes", "--yes")
	out, _, _ = run(t, env, "", "storage", "prune", "--empty-trash", "--apply")
	if !strings.Contains(out, "1 trashed session deleted") {
		t.Fatalf("%s", out)
	}
}

func TestStorageInTheREPL(t *testing.T) {
	home := t.TempDir()
	oldStore(t, home)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_SESSION_TTL=0"} // the start-up pass removes only the temp file
	out, errOut, code := run(t, env, "/storage\n/storage prune\n/storage prune --apply\n/storage prune --now\n")
	if code != exitUsage || !strings.Contains(out, "sessions you named") || !strings.Contains(out, "Nothing to remove.") ||
		!strings.Contains(errOut, "note: storage: deleted 1 leftover temp file") || !strings.Contains(errOut, "/storage [prune [--apply]]") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestREPLStartupPassRemovesExpiredAutosaves(t *testing.T) {
	home := t.TempDir()
	oldStore(t, home)
	_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "/session list\n")
	if code != 0 || !strings.Contains(errOut, "note: storage: moved 1 machine-made session to the trash") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	_, errOut, _ = run(t, []string{"CHATCLI_HOME=" + home}, "/session list\n")
	if strings.Contains(errOut, "storage:") {
		t.Fatalf("nothing to say the second time:\n%s", errOut)
	}
}

func TestStorageFlags(t *testing.T) {
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, getenv: func(string) string { return "" }}
	var got *storagePruneOptions
	cmd := newStoragePruneCmd(f, func(o *storagePruneOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--apply", "--empty-trash", "-q", "--json"})
	if err := cmd.Execute(); err != nil || !got.Apply || !got.EmptyTrash || !got.Quiet || !got.JSON {
		t.Fatalf("%v %+v", err, got)
	}
	cmd = newStoragePruneCmd(f, func(*storagePruneOptions) error { return nil })
	cmd.SetArgs([]string{"now"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err == nil {
		t.Fatal("a positional argument must be refused")
	}
	_, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_SESSION_TTL=1y"}, "", "storage")
	if code != exitUsage || !strings.Contains(errOut, "CHATCLI_SESSION_TTL") {
		t.Fatalf("bad TTL: exit %d %s", code, errOut)
	}
}

// TestEmptiedTrashTakesTheJournalWithIt: a session deleted and then
// emptied from the trash is gone for good, its journal too, so search no
// longer finds it.
func TestEmptiedTrashTakesTheJournalWithIt(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	run(t, env, "zanzibar secret\n/session save gone\n")
	run(t, env, "kept talk\n/session save kept\n")
	if out, _, _ := run(t, env, "", "session", "search", "zanzibar"); !strings.Contains(out, "gone #1") {
		t.Fatalf("before: %s", out)
	}
	run(t, env, "", "session", "delete", "gone", "--yes")
	if _, errOut, code := run(t, env, "", "storage", "prune", "--empty-trash", "--apply"); code != 0 {
		t.Fatalf("empty-trash: %d %s", code, errOut)
	}
	if out, _, _ := run(t, env, "", "session", "search", "zanzibar"); !strings.Contains(out, "No matches") {
		t.Fatalf("an emptied session is still searchable:\n%s", out)
	}
	if out, _, _ := run(t, env, "", "session", "search", "kept"); !strings.Contains(out, "kept #1") {
		t.Fatalf("the other session's journal must stay:\n%s", out)
	}
}

// TestEmptyTrashReportsTheJournals: --empty-trash says how many journals it
// deleted with the trashed sessions, and how many it kept and why.
func TestEmptyTrashReportsTheJournals(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	journals := func() []string {
		j, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
		return j
	}
	trash := func(name string) {
		mustRun(t, env, "", "-p", "hello", "--session", name)
		mustRun(t, env, "", "session", "delete", name, "--yes")
	}
	// While a session file cannot be read, the journal stays (it might name it).
	trash("one")
	bad := filepath.Join(home, "sessions", "bad.json")
	os.WriteFile(bad, nil, 0o600)
	out := mustRun(t, env, "", "storage", "prune", "--empty-trash", "--apply")
	if !strings.Contains(out, "1 trashed session deleted") || strings.Contains(out, "with 1 journal") ||
		!strings.Contains(out, "1 journal of those sessions kept: another session names it, or a session file cannot be read.") || len(journals()) != 1 {
		t.Fatalf("%s\njournals: %v", out, journals())
	}
	os.Remove(bad)
	trash("two")
	out = mustRun(t, env, "", "storage", "prune", "--empty-trash", "--apply")
	if !strings.Contains(out, "1 trashed session deleted (") || !strings.Contains(out, "), with 1 journal no other session names (") ||
		strings.Contains(out, "kept") || len(journals()) != 1 {
		t.Fatalf("%s\njournals: %v", out, journals())
	}
	trash("three")
	out = mustRun(t, env, "", "storage", "prune", "--empty-trash", "--apply", "--json")
	var res struct {
		Emptied  []string `json:"trash_emptied"`
		Journals []string `json:"journals_deleted"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Emptied) != 1 || len(res.Journals) != 1 || len(journals()) != 1 {
		t.Fatalf("%v: %s\njournals: %v", err, out, journals())
	}
}

// TestEmptyTrashWithoutApplyDeletesNothing: --empty-trash follows the
// dry-run rule of every prune form: alone it lists what --apply would
// delete and the trash stays byte-identical.
func TestEmptyTrashWithoutApplyDeletesNothing(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	mustRun(t, env, "", "-p", "hello", "--session", "old")
	mustRun(t, env, "", "session", "delete", "old", "--yes")
	before := snapshot(t, home)
	out := mustRun(t, env, "", "storage", "prune", "--empty-trash")
	if !strings.Contains(out, "would delete 1 trashed session") || !strings.Contains(out, "nothing was deleted") ||
		!strings.Contains(out, "--empty-trash --apply") || !strings.Contains(out, "  old  (old.") {
		t.Fatalf("dry run:\n%s", out)
	}
	out = mustRun(t, env, "", "storage", "prune", "--empty-trash", "--json")
	var res struct {
		ToEmpty []string `json:"trash_to_empty"`
		Emptied []string `json:"trash_emptied"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.ToEmpty) != 1 || len(res.Emptied) != 0 {
		t.Fatalf("dry run --json: %v\n%s", err, out)
	}
	after := snapshot(t, home)
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed without --apply", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files before, %d after a dry run", len(before), len(after))
	}
	if out := mustRun(t, env, "", "session", "restore", "old"); !strings.Contains(out, "Restored") {
		t.Fatalf("restore after the dry run: %s", out)
	}
}

// TestEmptyTrashPreviewOfAnEmptyTrash: the preview says the trash is empty
// instead of asking for --apply to delete nothing.
func TestEmptyTrashPreviewOfAnEmptyTrash(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	out := mustRun(t, env, "", "storage", "prune", "--empty-trash")
	if !strings.Contains(out, "The trash is empty.") || strings.Contains(out, "--apply`") {
		t.Fatalf("%s", out)
	}
}

// TestSessionListOfAnEmptyStore names the store and how sessions come to
// be, not a REPL command.
func TestSessionListOfAnEmptyStore(t *testing.T) {
	home := t.TempDir()
	out := mustRun(t, []string{"CHATCLI_HOME=" + home}, "", "session", "list")
	if !strings.Contains(out, "No saved sessions in "+filepath.Join(home, "sessions")+".") || strings.Contains(out, "/session save") {
		t.Fatalf("%s", out)
	}
}
