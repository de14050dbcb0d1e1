package acpserver

import (
	"context"
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/message"
)

// replay sends history as session/update notifications, in order: user
// messages as user_message_chunk, assistant text as agent_message_chunk,
// each tool call as tool_call (pending until its result) and each tool
// result as tool_call_update (completed, with the result as text). System
// messages are not shown to the client.
func (s *Server) replay(ctx context.Context, id acp.SessionId, history []message.Message) error {
	send := func(u acp.SessionUpdate) error {
		return s.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: id, Update: u})
	}
	for _, m := range history {
		var err error
		switch m.Role {
		case message.RoleUser:
			err = send(acp.UpdateUserMessageText(m.Content))
		case message.RoleAssistant:
			if m.Content != "" {
				err = send(acp.UpdateAgentMessageText(m.Content))
			}
			for _, tc := range m.ToolCalls {
				if err != nil {
					break
				}
				err = send(acp.StartToolCall(acp.ToolCallId(tc.ID), tc.Name,
					acp.WithStartKind(toolKind(tc.Name)), acp.WithStartStatus(acp.ToolCallStatusPending),
					acp.WithStartRawInput(rawArguments(tc.Arguments))))
			}
		case message.RoleTool:
			err = send(acp.UpdateToolCall(acp.ToolCallId(m.ToolCallID),
				acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
				acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(m.Content))}),
				acp.WithUpdateRawOutput(m.Content)))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rawArguments is a tool call's arguments as JSON when they parse, else
// the raw text.
func rawArguments(args string) any {
	var v any
	if json.Unmarshal([]byte(args), &v) == nil {
		return v
	}
	return args
}
