package conversation

import "encoding/json"

// strictCheck applies the chat-completions rules a strict server enforces:
// every assistant tool call is answered by a tool message before the next
// assistant or user message, no tool message lacks its call, and no two user
// messages are adjacent. It returns the violation or "".
func strictCheck(body []byte) string {
	var req struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "bad json"
	}
	open := map[string]bool{}
	prev := ""
	for _, m := range req.Messages {
		switch m.Role {
		case "tool":
			if !open[m.ToolCallID] {
				return "tool message without a preceding tool call: " + m.ToolCallID
			}
			delete(open, m.ToolCallID)
		default:
			if len(open) > 0 {
				return "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"
			}
			if m.Role == "user" && prev == "user" {
				return "two user messages in a row"
			}
			for _, c := range m.ToolCalls {
				open[c.ID] = true
			}
		}
		prev = m.Role
	}
	if len(open) > 0 {
		return "unanswered tool call at the end"
	}
	return ""
}
