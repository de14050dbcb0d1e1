package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listed is `chatcli session list --json` read back.
func listed(t *testing.T, env []string) []struct {
	Name     string `json:"name"`
	Messages int    `json:"messages"`
} {
	t.Helper()
	out, errOut, code := run(t, env, "", "session", "list", "--json")
	if code != 0 {
		t.Fatalf("session list: exit %d: %s", code, errOut)
	}
	var l []struct {
		Name     string `json:"name"`
		Messages int    `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("session list --json: %v\n%s", err, out)
	}
	return l
}

func TestContinuePicksTheNewestSessionOfThisFolder(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	a, b := t.TempDir(), t.TempDir()
	if _, errOut, code := runAt(t, a, env, "alpha one\n"); code != 0 {
		t.Fatalf("repl in a: %d %s", code, errOut)
	}
	if _, errOut, code := runAt(t, a, env, "", "-p", "named in a", "--session", "work-a"); code != 0 {
		t.Fatalf("-p in a: %d %s", code, errOut)
	}
	if _, errOut, code := runAt(t, b, env, "bravo one\n"); code != 0 { // newer, but another folder's
		t.Fatalf("repl in b: %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "session", "rename", "work-a", "work-a2"); code != 0 {
		t.Fatalf("rename: %d %s", code, errOut)
	}
	out, errOut, code := runAt(t, a, env, "", "-c", "-p", "continued")
	if code != 0 || !strings.Contains(out, "continued") {
		t.Fatalf("-c -p: exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, _ = run(t, env, "", "session", "show", "work-a2")
	if !strings.Contains(out, "named in a") || !strings.Contains(out, "continued") {
		t.Fatalf("-c in a did not continue work-a2 (renamed), a's newest:\n%s", out)
	}
	out, _, _ = runAt(t, b, env, "", "-c", "-p", "in b again")
	for _, s := range listed(t, env) {
		if s.Name == "work-a2" && s.Messages != 4 {
			t.Fatalf("-c in b wrote into a's session: %+v", s)
		}
	}
	_, errOut, code = runAt(t, t.TempDir(), env, "", "-c", "-p", "x")
	if code != exitNotFound || !strings.Contains(errOut, "no conversation was used in") {
		t.Fatalf("-c in a folder never used: exit %d: %s", code, errOut)
	}
}

func TestResumeNameThenAPipedPromptContinuesIt(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "", "-p", "first", "--session", "demo"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	out, errOut, code := run(t, env, "second\n", "--resume", "demo")
	if code != 0 || !strings.Contains(out, "second") || !strings.Contains(errOut, `Loaded session "demo" (2 messages)`) {
		t.Fatalf("--resume demo: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "first") {
		t.Fatalf("a script's output holds the replay:\n%s", out)
	}
	l := listed(t, env)
	if len(l) != 1 || l[0].Name != "demo" || l[0].Messages != 4 {
		t.Fatalf("after --resume demo: %+v", l)
	}
}

func TestSessionWithoutPromptOpensTheREPLBound(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	out, errOut, code := run(t, env, "hello\n/session status\n", "--session", "fresh")
	if code != 0 || !strings.Contains(out, `Bound to session "fresh" (2 messages)`) {
		t.Fatalf("--session fresh: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "Conversation saved as") {
		t.Fatalf("a bound REPL made an autosave:\n%s", errOut)
	}
	if l := listed(t, env); len(l) != 1 || l[0].Name != "fresh" {
		t.Fatalf("sessions: %+v", l)
	}
}

func TestResumedAutosaveLeavesOneAutosaveWithEveryMessage(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	_, errOut, _ := run(t, env, "one\ntwo\n")
	l := listed(t, env)
	if len(l) != 1 || !strings.Contains(errOut, "chatcli --resume "+l[0].Name) {
		t.Fatalf("exit line does not say how to come back: %+v\n%s", l, errOut)
	}
	first := l[0].Name
	for i, resume := range [][]string{{"--resume", first}, {"-c"}} {
		_, errOut, code := run(t, env, "more\n", resume...)
		if code != 0 || !strings.Contains(errOut, "unbound") {
			t.Fatalf("%v: exit %d\n%s", resume, code, errOut)
		}
		l = listed(t, env)
		if len(l) != 1 || l[0].Name == first || l[0].Messages != 6+2*i {
			t.Fatalf("after %v: %+v; want one new autosave with every message", resume, l)
		}
		first = l[0].Name
	}
	out, _, code := run(t, env, "/session load "+first+"\n/session status\n")
	if code != 0 || !strings.Contains(out, "No session bound") {
		t.Fatalf("/session load of an autosave must continue unbound:\n%s", out)
	}
}

func TestResumeFlagsRefuseWhatTheyCannotDo(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume"}, "--resume needs a NAME"},
		{[]string{"-c", "--resume", "x"}, "give one of them"},
		{[]string{"--session", "a", "--resume", "b"}, "give one of them"},
		{[]string{"--session="}, "--session needs a NAME"},
		{[]string{"--resume", "a", "b"}, `unexpected argument "b"`},
		{[]string{"--resume", "bad/name"}, "bad/name"},
		{[]string{"--name", "autosave-1", "-p", "x"}, `reserved session name "autosave-1"`},
		{[]string{"--name", "a", "-c"}, "give one of them"},
		{[]string{"--name="}, "--name needs a NAME"},
	} {
		_, errOut, code := run(t, env, "", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, exitUsage, tc.want)
		}
	}
	if _, errOut, code := run(t, env, "/resume\n"); code != exitUsage || !strings.Contains(errOut, "/resume needs a NAME here") {
		t.Errorf("/resume without a name in a script: exit %d: %s", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(strings.TrimPrefix(env[0], "CHATCLI_HOME="), "sessions")); len(entries) != 0 {
		t.Fatalf("refused flags wrote sessions: %v", entries)
	}
}

func TestShellCompletionListsSessionNames(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	for _, n := range []string{"alpha", "beta"} {
		if _, errOut, code := run(t, env, "", "-p", "about "+n, "--session", n); code != 0 {
			t.Fatalf("%d %s", code, errOut)
		}
	}
	for _, args := range [][]string{
		{"__complete", "session", "show", ""},
		{"__complete", "session", "fork", ""},
		{"__complete", "--resume", ""},
		{"__complete", "--session", ""},
	} {
		out, errOut, code := run(t, env, "", args...)
		if code != 0 || !strings.Contains(out, "alpha\tabout alpha\n") || !strings.Contains(out, "beta\tabout beta\n") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	out, _, _ := run(t, env, "", "__complete", "session", "show", "al")
	if strings.Contains(out, "beta") || !strings.Contains(out, "alpha") {
		t.Errorf("prefix al:\n%s", out)
	}
	out, _, _ = run(t, env, "", "__complete", "session", "export", "alpha", "")
	if !strings.Contains(out, "md\n") || !strings.Contains(out, "jsonl\n") {
		t.Errorf("export formats:\n%s", out)
	}
}

func TestNameStartsANewSessionAndRenameRenamesTheBoundOne(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "hello\n", "--name", "proj"); code != 0 {
		t.Fatalf("--name proj: %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "", "--name", "proj", "-p", "x"); code != exitUsage || !strings.Contains(errOut, "chatcli --resume proj continues it") {
		t.Fatalf("--name of an existing session: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, env, "/session rename proj-2\n/session status\n", "--resume", "proj")
	if code != 0 || !strings.Contains(out, `Renamed "proj" to "proj-2"`) || !strings.Contains(out, `Bound to session "proj-2" (2 messages)`) {
		t.Fatalf("/session rename: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = run(t, env, "/session title The parser plan\n", "--resume", "proj-2")
	if code != 0 || !strings.Contains(out, `titled "The parser plan"`) {
		t.Fatalf("/session title: exit %d\n%s\n%s", code, out, errOut)
	}
	if out, _, _ := run(t, env, "", "session", "list"); !strings.Contains(out, "The parser plan") {
		t.Fatalf("the title is not listed:\n%s", out)
	}
	if _, errOut, code := run(t, env, "/session title x\n"); code != exitUsage || !strings.Contains(errOut, "no session is bound") {
		t.Fatalf("/session title unbound: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, env, "/session rename x\n"); code != exitUsage || !strings.Contains(errOut, "no session is bound") {
		t.Fatalf("/session rename unbound: exit %d: %s", code, errOut)
	}
	if l := listed(t, env); len(l) != 1 || l[0].Name != "proj-2" {
		t.Fatalf("sessions: %+v", l)
	}
}

func TestForkAt(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "one\ntwo\nthree\n/session save src\n"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	out, errOut, code := run(t, env, "", "session", "fork", "src", "dst", "--at", "3")
	if code != 0 || !strings.Contains(out, `Forked "src" into "dst" (3 messages)`) {
		t.Fatalf("fork --at 3: exit %d\n%s\n%s", code, out, errOut)
	}
	show, _, _ := run(t, env, "", "session", "show", "dst")
	if !strings.Contains(show, "#3 user\ntwo") || strings.Contains(show, "three") {
		t.Fatalf("dst holds messages 1-3 only:\n%s", show)
	}
	out, errOut, code = run(t, env, "/session fork mid --at 2\n/session status\n", "--resume", "src")
	if code != 0 || !strings.Contains(out, `Forked messages 1-2 into "mid"`) || !strings.Contains(out, `Bound to session "mid" (2 messages)`) {
		t.Fatalf("/session fork --at: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, l := range listed(t, env) {
		if want := map[string]int{"src": 6, "dst": 3, "mid": 2}[l.Name]; l.Messages != want {
			t.Fatalf("after the forks: %+v", listed(t, env))
		}
	}
	for _, bad := range [][]string{
		{"session", "fork", "src", "x", "--at", "99"},
		{"session", "fork", "src", "x", "--at", "0"},
		{"session", "fork", "src", "dst", "--at", "1"},
	} {
		if _, errOut, code := run(t, env, "", bad...); code != exitUsage || strings.Contains(errOut, "chatcli session transcript") {
			t.Errorf("%v: exit %d (%s), want %d and no command that does not exist", bad, code, errOut, exitUsage)
		}
	}
	if _, errOut, code := run(t, env, "/session fork y --at two\n", "--resume", "src"); code != exitUsage || !strings.Contains(errOut, `--at "two"`) {
		t.Errorf("/session fork --at two: exit %d %s", code, errOut)
	}
}

// -p --session NAME continues NAME itself even when chatcli made it (an
// autosave): the turn is in NAME afterwards, and nothing went to the trash.
func TestOneShotSessionBindsAnAutosave(t *testing.T) {
	h := t.TempDir()
	env := []string{"CHATCLI_HOME=" + h}
	mustRun(t, env, "first\n")
	files, _ := filepath.Glob(filepath.Join(h, "sessions", "autosave-*.json"))
	if len(files) != 1 {
		t.Fatalf("autosaves: %v", files)
	}
	name := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	mustRun(t, env, "", "-p", "second", "--session", name)
	out := mustRun(t, env, "", "session", "show", name)
	if !strings.Contains(out, "first") || !strings.Contains(out, "second") {
		t.Fatalf("session %s:\n%s", name, out)
	}
	if trashed, _ := filepath.Glob(filepath.Join(h, "trash", "*")); len(trashed) != 0 {
		t.Fatalf("trash holds %v", trashed)
	}
}
