package command

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

func resumeEnv(t *testing.T) (*Env, *bytes.Buffer) {
	t.Helper()
	st, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	var h []message.Message
	for _, c := range []string{"first", "one", "second", "two", "third", "three"} {
		role := message.RoleUser
		if len(h)%2 == 1 {
			role = message.RoleAssistant
		}
		h = append(h, message.Message{Role: role, Content: c})
	}
	for _, n := range []string{"demo", "draft"} {
		if err := st.Save(n, &session.Session{History: h}); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	return &Env{Engine: conversation.New(conversation.Options{Store: st, Provider: offline.New("")}), Out: &out, Err: &out,
		Config: &config.Config{ResumeReplay: 2}}, &out
}

func TestResumeCommand(t *testing.T) {
	env, out := resumeEnv(t)
	if err := Dispatch(context.Background(), env, "/resume demo"); err != nil {
		t.Fatal(err)
	}
	want := "Loaded session \"demo\" (6 messages).\n… 4 earlier messages (/session transcript show 1)\n> third\nthree\n"
	if out.String() != want || env.Engine.Bound() != "demo" {
		t.Fatalf("/resume demo:\n%s\nwant:\n%s", out, want)
	}
	if err := Dispatch(context.Background(), env, "/resume"); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "needs a NAME") {
		t.Fatalf("/resume without a name or a picker: %v", err)
	}
	if err := Dispatch(context.Background(), env, "/resume missing"); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("/resume missing: %v", err)
	}
	env.Pick = func() (string, error) { return "draft", nil }
	out.Reset()
	if err := Dispatch(context.Background(), env, "/resume"); err != nil || env.Engine.Bound() != "draft" {
		t.Fatalf("/resume through the picker: bound %q, %v", env.Engine.Bound(), err)
	}
	env.Pick = func() (string, error) { return "", nil }
	out.Reset()
	if err := Dispatch(context.Background(), env, "/resume"); err != nil || out.String() != "Nothing resumed.\n" || env.Engine.Bound() != "draft" {
		t.Fatalf("picker left: %q bound %q %v", out, env.Engine.Bound(), err)
	}
}

func TestResumeCompletesSessionNames(t *testing.T) {
	env, _ := resumeEnv(t)
	if got := Complete(env, "/resume d"); !slices.Equal(got, []string{"/resume demo", "/resume draft"}) && !slices.Equal(got, []string{"/resume draft", "/resume demo"}) {
		t.Fatalf("completions: %v", got)
	}
	if got := Complete(env, "/resume de"); !slices.Equal(got, []string{"/resume demo"}) {
		t.Fatalf("completions: %v", got)
	}
	if got := Complete(env, "/res"); !slices.Contains(got, "/resume") {
		t.Fatalf("command completion: %v", got)
	}
}

func TestTranscriptExportIsSessionExport(t *testing.T) {
	env, out := resumeEnv(t)
	if err := Dispatch(context.Background(), env, "/resume demo"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ line, file, want string }{
		{"/session transcript export " + filepath.Join(dir, "a.md"), "a.md", "third"},
		{"/session transcript export jsonl " + filepath.Join(dir, "a.jsonl"), "a.jsonl", `"third"`},
	} {
		out.Reset()
		if err := Dispatch(context.Background(), env, c.line); err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil || !strings.Contains(string(data), c.want) || !strings.Contains(out.String(), "Exported 6 messages") {
			t.Fatalf("%s: %v\n%s\n%s", c.line, err, out, data)
		}
	}
	if err := Dispatch(context.Background(), env, "/session transcript export md a b"); !errors.Is(err, ErrUsage) {
		t.Fatalf("too many arguments: %v", err)
	}
}

// TestCompletionNotesAreSessionTitles: a candidate naming a session gets
// its title as its note, made visible; other candidates get none.
func TestCompletionNotesAreSessionTitles(t *testing.T) {
	env, _ := resumeEnv(t)
	if err := env.Engine.Store().Save("titled", &session.Session{Title: "Deploy \x1b]0;owned\x07plan",
		History: []message.Message{{Role: message.RoleUser, Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if got := Complete(env, "/session load t"); !slices.Equal(got, []string{"/session load titled"}) {
		t.Fatalf("completions: %v", got)
	}
	if got := CompletionNote(env, "/session load titled"); got != "Deploy ^[]0;owned^Gplan" {
		t.Fatalf("note %q", got)
	}
	if got := CompletionNote(env, "/session list"); got != "" {
		t.Fatalf("a verb got note %q", got)
	}
}
