package command

import (
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

func TestReplayShowsTheLastMessagesAndCountsTheRest(t *testing.T) {
	h := []message.Message{{Role: message.RoleSystem, Content: "sys"}}
	for i := range 6 {
		h = append(h, message.Message{Role: message.RoleUser, Content: "q" + string(rune('0'+i))},
			message.Message{Role: message.RoleAssistant, Content: "a" + string(rune('0'+i))})
	}
	h = append(h, message.Message{Role: message.RoleUser, Content: "run it"},
		message.Message{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "c1", Name: "run_command", Arguments: "{\"command\":\n\"ls\"}"}}},
		message.Message{Role: message.RoleTool, ToolCallID: "c1", Content: "a.go\nb.go\n" + strings.Repeat("x", 300)})
	var b strings.Builder
	Replay(nil, &b, h, 4, nil)
	want := "… 11 earlier messages (/session transcript show 1)\n" +
		"a5\n> run it\n  → run_command {\"command\": \"ls\"}\n  ← a.go b.go " + strings.Repeat("x", 90) + "…\n"
	if b.String() != want {
		t.Fatalf("replay:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	Replay(nil, &b, h, 0, nil)
	if b.Len() != 0 {
		t.Fatalf("replay 0 printed %q", b.String())
	}
	b.Reset()
	Replay(nil, &b, h[:3], 10, nil)
	if b.String() != "> q0\na0\n" {
		t.Fatalf("short history: %q", b.String())
	}
}

// A prompt left unanswered (its request failed or was cancelled) is said
// to be so, in the replay's language, so the missing reply does not look
// lost.
func TestReplayMarksAnUnansweredPrompt(t *testing.T) {
	h := []message.Message{{Role: message.RoleUser, Content: "will fail", Meta: &message.Meta{Unanswered: true}},
		{Role: message.RoleUser, Content: "next"}, {Role: message.RoleAssistant, Content: "ok"}}
	var b strings.Builder
	Replay(nil, &b, h, 10, nil)
	if want := "> will fail\n  (unanswered: its request failed or was cancelled)\n> next\nok\n"; b.String() != want {
		t.Fatalf("replay %q, want %q", b.String(), want)
	}
	b.Reset()
	Replay(i18n.New(i18n.Portuguese), &b, h, 10, nil)
	if !strings.Contains(b.String(), "> will fail\n  (sem resposta: a requisição falhou ou foi cancelada)\n") {
		t.Fatalf("Portuguese replay %q", b.String())
	}
}
