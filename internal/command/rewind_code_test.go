package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/shadow"
	"github.com/chatcli/chatcli/internal/tools"
)

// coderEngine is an engine in coder mode over ws with the real tools and
// file checkpoints; the offline provider answers without calling tools,
// so the test runs the tool calls itself between turns.
func coderEngine(t *testing.T, ws string) (*conversation.Engine, *tools.Box) {
	t.Helper()
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := shadow.Open(home, ws, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	box, err := tools.New(tools.Options{Root: ws, AutoExec: true,
		Hooks: tools.Hooks{BeforeChange: repo.BeforeChange, AfterChange: repo.AfterChange, Command: repo.Command}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { box.Close() })
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), Toolbox: box, CodeCheckpoints: repo})
	if err := e.SetMode(conversation.ModeCoder); err != nil {
		t.Fatal(err)
	}
	return e, box
}

func TestRewindMenuOffersCodeConversationOrBoth(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	e, box := coderEngine(t, ws)
	if _, err := e.Turn(ctx, "one", nil); err != nil {
		t.Fatal(err)
	}
	if out, isErr := box.Run(ctx, conversation.ModeCoder, message.ToolCall{ID: "1", Name: "write_file",
		Arguments: `{"path":"x.go","content":"package x\n"}`}); isErr {
		t.Fatal(out)
	}
	if _, err := e.Turn(ctx, "two", nil); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	answers := []string{"2", "maybe", "3"}
	var prompts []string
	env := &Env{Engine: e, Out: &out, Interactive: true, Ask: func(p string) (string, error) {
		prompts = append(prompts, p)
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}}
	if err := runRewind(ctx, env, nil); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(prompts) != 3 || !strings.Contains(prompts[1], "[2] code") || !strings.Contains(out.String(), "Answer 1, 2, 3 or q.") {
		t.Errorf("prompts %q\n%s", prompts, out.String())
	}
	for _, want := range []string{"+code", "remove          x.go", "1 path set back", "Rewound to"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "x.go")); err == nil {
		t.Error("x.go is still there")
	}
	// The conversation is back before "one": the mode message only.
	if h := e.History(); len(h) != 1 || h[0].Role != message.RoleSystem {
		t.Errorf("history after rewind: %+v", h)
	}
	// An unknown scope is a usage error.
	out.Reset()
	if err := runRewind(ctx, env, []string{"1", "sideways"}); err == nil {
		t.Error("an unknown scope was accepted")
	}
}

func TestRewindCodeWithoutFileCheckpointSaysSo(t *testing.T) {
	ctx := context.Background()
	e, _ := coderEngine(t, t.TempDir())
	if err := e.SetMode(conversation.ModeChat); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Turn(ctx, "hi", nil); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := runRewind(ctx, &Env{Engine: e, Out: &out}, []string{"1", "code"})
	if err == nil || !strings.Contains(err.Error(), "chat mode") || !strings.Contains(err.Error(), "nothing to restore") {
		t.Errorf("err = %v", err)
	}
}
