package repl

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// fakeTerminal replays scripted ReadLine results, as the line editor would
// return them.
type fakeTerminal struct {
	steps   []any // string lines or errors
	prompts []string
}

func (f *fakeTerminal) ReadLine(_ context.Context, prompt string) (string, error) {
	f.prompts = append(f.prompts, prompt)
	if len(f.steps) == 0 {
		return "", io.EOF
	}
	s := f.steps[0]
	f.steps = f.steps[1:]
	if err, ok := s.(error); ok {
		return "", err
	}
	return s.(string), nil
}

func (f *fakeTerminal) Add(string) error { return nil }

func TestEscEscOpensTheRewindMenu(t *testing.T) {
	st, _ := session.Open(filepath.Join(t.TempDir(), "sessions"))
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), JournalDir: t.TempDir()})
	term := &fakeTerminal{steps: []any{"one", "two", "/session save s", "three", ErrRewindMenu, "2"}}
	var out, errb bytes.Buffer
	if err := Run(context.Background(), Options{Engine: e, Reader: term, Out: &out, Err: &errb}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "[1] ") || !strings.Contains(out.String(), "4 msgs  three") ||
		!strings.Contains(out.String(), `Rewound to`) {
		t.Fatalf("menu not shown or not applied:\n%s\n%s", out.String(), errb.String())
	}
	if p := term.prompts[len(term.prompts)-2]; !strings.HasPrefix(p, "Rewind to [1-3]") {
		t.Fatalf("menu question: %q", p)
	}
	s, _ := st.Load("s")
	if users(s.History) != "one" {
		t.Fatalf("after rewinding to before \"two\": %q", users(s.History))
	}
}

func users(h []message.Message) string {
	var out []string
	for _, m := range h {
		if m.Role == message.RoleUser {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, ",")
}
