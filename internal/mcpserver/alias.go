package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/conversation"
)

// The tools of ChatCLI's MCP server (its cli/rpcserve/mcp.go) that clients
// configured for ChatCLI call: ask_chatcli is chat; agent_task and
// coder_task run one task in agent or coder mode and return to the mode
// before, as /agent TASK does.

// TaskInput is the input of agent_task and coder_task.
type TaskInput struct {
	Task    string `json:"task" jsonschema:"the task, as a person would type it"`
	Session string `json:"session,omitempty" jsonschema:"continue this named session (loaded when it exists, created at this turn when not); omit to continue the current conversation"`
}

func addChatCLITools(s *Server) {
	ask := chatTool()
	ask.Name, ask.Title = "ask_chatcli", "Ask (ChatCLI's name of chat)"
	mcp.AddTool(s.mcp, ask, s.chat)
	for name, mode := range map[string]string{"agent_task": conversation.ModeAgent, "coder_task": conversation.ModeCoder} {
		mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Title: "Run a task in " + mode + " mode",
			Description: "Run one task in chatcli's " + mode + " mode (the model " + modeTools[mode] + " in the server's working folder; " +
				"a write or command that would ask on a terminal is refused unless CHATCLI_AGENT_AUTO_EXEC is on) and return the final answer. " +
				"The conversation then goes back to the mode it was in. `session` as for chat.",
			OutputSchema: outputSchema[ChatOutput](),
		}, s.task(mode))
	}
}

var modeTools = map[string]string{
	conversation.ModeAgent: "reads and searches files and runs commands",
	conversation.ModeCoder: "reads, creates and edits files and runs commands",
}

// task returns the handler of agent_task or coder_task.
func (s *Server) task(mode string) mcp.ToolHandlerFor[TaskInput, ChatOutput] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in TaskInput) (*mcp.CallToolResult, ChatOutput, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if strings.TrimSpace(in.Task) == "" {
			return nil, ChatOutput{}, fmt.Errorf("%s_task: task is empty", mode)
		}
		if in.Session != "" {
			if err := s.bind(in.Session); err != nil {
				return nil, ChatOutput{}, toolError(err)
			}
		}
		was := s.e.Mode()
		if err := s.e.SetMode(mode); err != nil {
			return nil, ChatOutput{}, toolError(err)
		}
		res, out, err := s.turn(ctx, req, in.Task)
		if serr := s.e.SetMode(was); serr != nil {
			err = errors.Join(err, serr)
		}
		return res, out, err
	}
}
