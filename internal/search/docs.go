package search

import "github.com/chatcli/chatcli/internal/message"

// MessageDocs returns one Doc per message of msgs with a non-empty text,
// positions counted from 1 over all of msgs. A message's text is its
// content followed by the name and arguments of each of its tool calls,
// one per line.
func MessageDocs(source string, msgs []message.Message) []Doc {
	out := make([]Doc, 0, len(msgs))
	for i, m := range msgs {
		text := MessageText(&m)
		if text == "" {
			continue
		}
		out = append(out, Doc{Source: source, Position: i + 1, Role: string(m.Role), Text: text})
	}
	return out
}

// MessageText returns what is searched of m: its content followed by the
// name and arguments of each of its tool calls, one per line.
func MessageText(m *message.Message) string {
	text := m.Content
	for _, c := range m.ToolCalls {
		if text != "" {
			text += "\n"
		}
		text += c.Name + " " + c.Arguments
	}
	return text
}
