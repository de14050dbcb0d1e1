package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// journaled runs a script with the journal on, in a fresh home.
func journaled(t *testing.T, home, input string) (string, string) {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := config.FromEnv(func(k string) string { return map[string]string{"CHATCLI_HOME": home}[k] })
	var out, errb bytes.Buffer
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), JournalDir: c.TranscriptsDir()})
	if err := Run(context.Background(), Options{Engine: e, In: strings.NewReader(input), Out: &out, Err: &errb, Config: &c}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

func TestTranscriptShowStatsAndExport(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	md, jl := filepath.Join(dir, "t.md"), filepath.Join(dir, "t.jsonl")
	out, _ := journaled(t, home, "first question\nsecond question\n/session save demo\n"+
		"/session transcript show 2 2\n/session transcript stats\n/session export md "+md+"\n/session export jsonl "+jl+"\n/config session\n")
	for _, want := range []string{"#2 assistant", "#3 user", "(messages 2-3 of 4)", "messages: 4 (user 2, assistant 2",
		"source:   journal", "Exported 4 messages to " + md + " (source: journal)", "bound session: demo", "active journal: "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`CHATCLI_SESSION_TRANSCRIPT +on +default`).MatchString(out) {
		t.Errorf("/config session must show the journal setting:\n%s", out)
	}
	for _, p := range []string{md, jl} {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v", p, err)
		}
	}
	data, _ := os.ReadFile(jl)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !json.Valid([]byte(lines[0])) {
		t.Fatalf("jsonl:\n%s", data)
	}
}

func TestExportFallsBackToTheLiveHistoryWhenTheJournalIsOff(t *testing.T) {
	st, _ := session.Open(filepath.Join(t.TempDir(), "sessions"))
	var out, errb bytes.Buffer
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New("")})
	p := filepath.Join(t.TempDir(), "x.md")
	Run(context.Background(), Options{Engine: e, In: strings.NewReader("hi\n/session export md " + p + "\n"), Out: &out, Err: &errb})
	if !strings.Contains(out.String(), "Exported 2 messages to "+p+" (source: live history)") {
		t.Fatalf("%s\n%s", out.String(), errb.String())
	}
}

func TestExportDefaultPath(t *testing.T) {
	wd := t.TempDir()
	old, _ := os.Getwd()
	os.Chdir(wd)
	t.Cleanup(func() { os.Chdir(old) })
	out, _ := journaled(t, t.TempDir(), "hi\n/session save demo\n/session export md\n/session export md\n")
	files, _ := filepath.Glob(filepath.Join(wd, "chatcli-demo-*.md"))
	if len(files) != 2 || !strings.Contains(out, filepath.Base(files[0])) {
		t.Fatalf("default exports %v\n%s", files, out)
	}
}

func TestSearchAcrossSessionsAndInTheTranscript(t *testing.T) {
	home := t.TempDir()
	journaled(t, home, "Der ÄRGER mit der Datenbank\n/session save de\n/session new\nнастройка БД и индексы\n/session save ru\n/session new\na ação começou\n/session save pt\n")
	out, _ := journaled(t, home, "/session search ärger\n/session search бд\n/session search acao\n/session load ru\n/session transcript search бд\n")
	for _, want := range []string{"de #1 user", "ru #1 user", "pt #1 user", "#1 user настройка БД"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}
