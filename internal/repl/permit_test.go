package repl

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

func TestPermitAsksOnTheTerminal(t *testing.T) {
	cases := []struct {
		answers []any
		want    Permission
	}{
		{[]any{"y"}, PermissionYes},
		{[]any{" Yes "}, PermissionYes},
		{[]any{"maybe", "a"}, PermissionAlways},
		{[]any{""}, PermissionNo},
		{[]any{"n"}, PermissionNo},
		{[]any{ErrInterrupt}, PermissionNo},
		{[]any{"?", "?", "?", "y"}, PermissionNo}, // three tries, then no
	}
	for _, c := range cases {
		term := &fakeTerminal{steps: c.answers}
		var out bytes.Buffer
		p := NewPermit(term.ReadLine, &out)
		got, err := p.Ask(context.Background(), "write main.go\n(1.2 KB)")
		if err != nil || got != c.want {
			t.Errorf("%q: got %v, %v; want %v", c.answers, got, err, c.want)
		}
		if q := term.prompts[0]; q != "Allow write main.go (1.2 KB)? [y]es / [n]o / [a]lways for this session " {
			t.Errorf("question %q", q)
		}
		if strings.Count(out.String(), "Answer y, n or a.") != len(term.prompts)-1 {
			t.Errorf("%q: retries said %q", c.answers, out.String())
		}
	}
}

func TestPermitAsksInPortuguese(t *testing.T) {
	term := &fakeTerminal{steps: []any{"?", "?", "?"}}
	var out bytes.Buffer
	p := NewPermit(term.ReadLine, &out)
	p.SetLang(i18n.New(i18n.Portuguese))
	if got, err := p.Ask(context.Background(), "run go test"); got != PermissionNo || err != nil {
		t.Fatalf("%v %v", got, err)
	}
	if q := term.prompts[0]; q != "Permitir run go test? [y] sim / [n] não / [a] sempre nesta sessão " {
		t.Errorf("question %q", q)
	}
	if got := out.String(); got != "Responda y, n ou a.\nResponda y, n ou a.\nEntendido como não.\n" {
		t.Errorf("retries said %q", got)
	}
}

func TestPermitWithoutATerminalRefuses(t *testing.T) {
	got, err := NewPermit(nil, nil).Ask(context.Background(), "run go test")
	if got != PermissionNo || !errors.Is(err, ErrNotApproved) ||
		err.Error() != "refused: not approved; input is not a terminal — rerun with --agent-auto-exec to allow" {
		t.Fatalf("%v %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	term := &fakeTerminal{steps: []any{"y"}}
	if got, err := NewPermit(term.ReadLine, nil).Ask(ctx, "x"); got != PermissionNo || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v %v", got, err)
	}
}

// echoBox offers one tool; the offline provider never calls it.
type echoBox struct{}

func (echoBox) Tools(string) []provider.Tool { return []provider.Tool{{Name: "echo"}} }
func (echoBox) Run(context.Context, string, message.ToolCall) (string, bool) {
	return "", true
}

func TestModeCommandsSwitchAndShowInThePrompt(t *testing.T) {
	st, _ := session.Open(filepath.Join(t.TempDir(), "sessions"))
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), Toolbox: echoBox{}})
	term := &fakeTerminal{steps: []any{"/agent", "list files", "/agent", "/chat", "hi", "/coder fix it"}}
	var out, errb bytes.Buffer
	if err := Run(context.Background(), Options{Engine: e, Reader: term, Out: &out, Err: &errb}); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	if !strings.Contains(o, "Agent mode:") || !strings.Contains(o, "Already in agent mode.") ||
		!strings.Contains(o, "Chat mode:") || !strings.Contains(o, "Coder mode:") {
		t.Fatalf("announcements:\n%s", o)
	}
	if term.prompts[1] != "offline (agent)> " || term.prompts[4] != "offline> " {
		t.Errorf("prompts %q", term.prompts)
	}
	var modes []string
	for _, m := range e.History() {
		modes = append(modes, string(m.Role)[:1]+":"+m.Meta.Mode)
	}
	// "/coder fix it" is one task: chat mode again after it, as in ChatCLI.
	if got := strings.Join(modes, " "); got != "s:agent u:agent a:agent s:chat u:chat a:chat s:coder u:coder a:coder s:chat" {
		t.Errorf("history modes %s", got)
	}
	if e.Mode() != conversation.ModeChat || !strings.Contains(o, "Task done; back in chat mode.") {
		t.Errorf("after /coder TASK: mode %s\n%s", e.Mode(), o)
	}
}
