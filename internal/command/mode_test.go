package command

import (
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
)

func TestToolLineIsOneLine(t *testing.T) {
	call := message.ToolCall{Name: "list_files", Arguments: "{\n  \"path\": \".\"\n}"}
	cases := []struct {
		a    conversation.ToolActivity
		want string
	}{
		{conversation.ToolActivity{Call: call, Content: "a\nb\n"}, `[tool] list_files { "path": "." }: ok, 2 lines`},
		{conversation.ToolActivity{Call: call, Content: "a"}, `[tool] list_files { "path": "." }: ok, 1 line`},
		{conversation.ToolActivity{Call: call, Content: ""}, `[tool] list_files { "path": "." }: ok`},
		{conversation.ToolActivity{Call: call, Content: "exit status 1\nFAIL", IsError: true}, `[tool] list_files { "path": "." }: error: exit status 1`},
		{conversation.ToolActivity{Call: call, Content: "refused: not approved", IsError: true}, `[tool] list_files { "path": "." }: refused: not approved`},
	}
	for _, c := range cases {
		if got := ToolLine(c.a); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	long := ToolLine(conversation.ToolActivity{Call: message.ToolCall{Name: "w", Arguments: strings.Repeat("é", 300)}, Content: strings.Repeat("x\n", 5)})
	if strings.Contains(long, "\n") || !strings.Contains(long, "…") || len([]rune(long)) > 120 {
		t.Errorf("long line %q", long)
	}
}

// A long refusal keeps its end, where the next step is named
// ("rerun with --agent-auto-exec to allow").
func TestToolLineKeepsTheNextStepOfALongError(t *testing.T) {
	msg := "run: echo hi > ran.txt; echo ok refused: could not ask the user for permission: refused: not approved; input is not a terminal — rerun with --agent-auto-exec to allow"
	got := ToolLine(conversation.ToolActivity{Call: message.ToolCall{Name: "run_command", Arguments: `{"command":"echo hi"}`}, Content: msg, IsError: true})
	if !strings.HasSuffix(got, "rerun with --agent-auto-exec to allow") || !strings.Contains(got, "refused") || !strings.Contains(got, "…") {
		t.Errorf("got %q", got)
	}
}
