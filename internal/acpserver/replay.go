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
// messages are not shown to the client. Text longer than ChunkBytes goes
// as several chunks; a tool call's arguments or result longer than that
// is shown cut (shown), so no notification nears the 10 MiB line limit.
func (s *Server) replay(ctx context.Context, id acp.SessionId, history []message.Message) error {
	send := func(u acp.SessionUpdate) error {
		return s.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: id, Update: u})
	}
	for _, m := range history {
		var err error
		switch m.Role {
		case message.RoleUser:
			for _, c := range textChunks(m.Content) {
				if err = send(acp.UpdateUserMessageText(c)); err != nil {
					break
				}
			}
		case message.RoleAssistant:
			for _, c := range textChunks(m.Content) {
				if err = send(acp.UpdateAgentMessageText(c)); err != nil {
					break
				}
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
			out := shown(m.Content)
			err = send(acp.UpdateToolCall(acp.ToolCallId(m.ToolCallID),
				acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
				acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(out))}),
				acp.WithUpdateRawOutput(out)))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rawArguments is a tool call's arguments as JSON when they parse, else
// the raw text; arguments longer than ChunkBytes are shown cut, as text.
func rawArguments(args string) any {
	if len(args) > ChunkBytes {
		return shown(args)
	}
	var v any
	if json.Unmarshal([]byte(args), &v) == nil {
		return v
	}
	return args
}
