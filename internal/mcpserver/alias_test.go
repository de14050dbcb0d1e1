package mcpserver

import (
	"context"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// echoBox offers one tool; the offline provider never calls it.
type echoBox struct{}

func (echoBox) Tools(string) []provider.Tool { return []provider.Tool{{Name: "echo"}} }
func (echoBox) Run(context.Context, string, message.ToolCall) (string, bool) {
	return "", true
}

// A client configured for ChatCLI's MCP server calls its tool names:
// ask_chatcli talks, agent_task and coder_task run one task in that mode and
// leave the conversation in the mode it was in, manage_session takes
// ChatCLI's session argument as the name.
func TestChatCLIToolNames(t *testing.T) {
	f := newFixture(t, setup{toolbox: echoBox{}})
	var out ChatOutput
	if f.ok("ask_chatcli", map[string]any{"prompt": "hello", "session": "work"}, &out); out.Session != "work" || !out.Bound || out.Reply == "" {
		t.Fatalf("ask_chatcli: %+v", out)
	}
	f.ok("coder_task", map[string]any{"task": "fix the build"}, &out)
	if f.srv.e.Mode() != conversation.ModeChat || out.Session != "work" {
		t.Fatalf("after coder_task: mode %s, %+v", f.srv.e.Mode(), out)
	}
	s, err := f.store.Load("work")
	if err != nil {
		t.Fatal(err)
	}
	var coder bool
	for _, m := range s.History {
		coder = coder || m.Role == message.RoleUser && m.Content == "fix the build" && m.Meta != nil && m.Meta.Mode == conversation.ModeCoder
	}
	if !coder {
		t.Fatalf("the task did not run in coder mode: %+v", s.History)
	}
	f.fails("agent_task", map[string]any{"task": " "}, "task is empty")
	if got := f.manage(map[string]any{"action": "save", "session": "kept"}); got.Bound != "kept" || !f.store.Exists("kept") {
		t.Fatalf("save with session: %+v", got)
	}
}
