package repl

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

type result struct {
	out, err string
	runErr   error
	store    *session.Store
}

func script(t *testing.T, st *session.Store, input string) result {
	t.Helper()
	if st == nil {
		var err error
		if st, err = session.Open(filepath.Join(t.TempDir(), "sessions")); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), Notify: func(s string) { errb.WriteString("note: " + s + "\n") }})
	err := Run(context.Background(), Options{Engine: e, In: strings.NewReader(input), Out: &out, Err: &errb, Autosave: true})
	return result{out.String(), errb.String(), err, st}
}

func TestScriptModeSavesAndReportsFailures(t *testing.T) {
	r := script(t, nil, "hello\n/session save demo\n/nope\n/session save two words\nbye\n")
	if !errors.Is(r.runErr, ErrScriptFailed) {
		t.Fatalf("want ErrScriptFailed, got %v", r.runErr)
	}
	if !strings.Contains(r.err, "unknown command /nope") || !strings.Contains(r.err, `cannot contain spaces: "two words"`) {
		t.Fatalf("stderr:\n%s", r.err)
	}
	s, err := r.store.Load("demo")
	if err != nil || len(s.History) != 4 {
		t.Fatalf("bound session must hold both turns: %v", err)
	}
	if strings.Contains(r.err, "autosave") {
		t.Fatal("a bound conversation is not autosaved")
	}
}

func TestExitAutosaveIsAnnounced(t *testing.T) {
	r := script(t, nil, "one\ntwo\n")
	if r.runErr != nil || !strings.Contains(r.err, `Conversation saved as "autosave-`) || !strings.Contains(r.err, "CHATCLI_SESSION_AUTOSAVE=off") {
		t.Fatalf("%v\n%s", r.runErr, r.err)
	}
	list, _ := r.store.List()
	if len(list) != 1 || list[0].Messages != 4 || !strings.HasPrefix(list[0].Name, "autosave-") {
		t.Fatalf("%+v", list)
	}
}

func TestDeleteNeedsYesInScriptsAndClearsTheActiveSession(t *testing.T) {
	r := script(t, nil, "hi\n/session save s\n/session delete s\n/session status\n")
	if !strings.Contains(r.err, "/session delete s --yes") || !r.store.Exists("s") {
		t.Fatalf("delete without --yes must be refused:\n%s", r.err)
	}
	r = script(t, r.store, "/session load s\n/session delete s --yes\n/session status\n")
	if r.runErr != nil || r.store.Exists("s") || !strings.Contains(r.out, "conversation was cleared") || !strings.Contains(r.out, "No session bound (0 messages") {
		t.Fatalf("%v\n%s\n%s", r.runErr, r.out, r.err)
	}
}

func TestLoadAutosavesUnsavedWorkFirst(t *testing.T) {
	r := script(t, nil, "first\n/session save a\n/session new\nunsaved work\n/session load a\n")
	if r.runErr != nil || !strings.Contains(r.out, `The previous conversation was saved as "autosave-`) {
		t.Fatalf("%v\n%s\n%s", r.runErr, r.out, r.err)
	}
}

func TestCompletion(t *testing.T) {
	r := script(t, nil, "x\n/session save alpha\n")
	env := &command.Env{Engine: conversation.New(conversation.Options{Store: r.store, Provider: offline.New("")})}
	for line, want := range map[string]string{
		"/ses":             "/session ",
		"/session lo":      "/session load ",
		"/session load al": "/session load alpha",
	} {
		got := command.Complete(env, line)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: %v, want %q", line, got, want)
		}
	}
	if got := command.Complete(env, "hello"); got != nil {
		t.Errorf("plain text must not complete: %v", got)
	}
}

func TestScriptModeKeepsTheClassOfItsFailures(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	classOf := func(err error) int {
		if errors.Is(err, session.ErrNotFound) {
			return 3
		}
		return 0
	}
	for _, c := range []struct {
		input string
		wraps bool
	}{
		{"/session load nope\n/session load gone\n", true},
		{"/session load nope\n/nope\n", false},
		{"/nope\n", false},
	} {
		var out, errb bytes.Buffer
		e := conversation.New(conversation.Options{Store: st, Provider: offline.New("")})
		err := Run(context.Background(), Options{Engine: e, In: strings.NewReader(c.input), Out: &out, Err: &errb, Class: classOf})
		if !errors.Is(err, ErrScriptFailed) || errors.Is(err, session.ErrNotFound) != c.wraps {
			t.Errorf("%q: %v (wraps the class: want %v)", c.input, err, c.wraps)
		}
		if !strings.HasPrefix(err.Error(), "some input lines failed (") || strings.Contains(err.Error(), "not found") {
			t.Errorf("%q: the summary only counts the failed lines: %v", c.input, err)
		}
	}
}

func TestForkOntoAnExistingNameSaysWhatToDo(t *testing.T) {
	r := script(t, nil, "hi\n/session save a\n/session fork a\n")
	if !errors.Is(r.runErr, ErrScriptFailed) || !strings.Contains(r.err, `session: already exists: "a"; pick another name for the fork, or /session save a --yes to replace it`) {
		t.Fatalf("%v\n%s", r.runErr, r.err)
	}
}
