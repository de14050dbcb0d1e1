package message

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ToolCall is one function call requested by an assistant message.
//
// Arguments is the JSON text of the arguments exactly as the model produced
// it, the string providers send back. On disk it is written the way ChatCLI
// writes it (models.ToolCall.Arguments, a JSON object): the text itself when
// it is a compact JSON object; otherwise the object form ChatCLI would
// produce (the object compacted, or {"raw": "<text>"} for text that is no
// JSON object, as ChatCLI's OpenAI adapter does) with the exact text beside
// it in "arguments_text", which ChatCLI ignores. Reading takes
// arguments_text when present, else the object as compact text, else a
// string (older chatcli files).
type ToolCall struct {
	ID        string
	Type      string
	Name      string
	Arguments string
	// Extra holds members this build does not know (ChatCLI's "raw", the
	// text of a call it parsed out of a reply), kept verbatim.
	Extra map[string]json.RawMessage
}

// toolCallWire is the JSON shape of a ToolCall.
type toolCallWire struct {
	ID            string          `json:"id"`
	Type          string          `json:"type,omitempty"`
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments"`
	ArgumentsText *string         `json:"arguments_text,omitempty"`
}

var knownToolCallKeys = map[string]bool{"id": true, "type": true, "name": true, "arguments": true, "arguments_text": true}

// MarshalJSON writes the call with its arguments as a JSON object (see
// ToolCall), Extra after the known members.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	w := toolCallWire{ID: c.ID, Type: c.Type, Name: c.Name}
	w.Arguments, w.ArgumentsText = argumentsObject(c.Arguments)
	b, err := marshal(w)
	if err != nil || len(c.Extra) == 0 {
		return b, err
	}
	return appendExtra(b[:len(b)-1], c.Extra), nil
}

// argumentsObject returns the JSON object written for the argument text
// args and, when that object is not args itself, args to keep beside it.
func argumentsObject(args string) (json.RawMessage, *string) {
	t := bytes.TrimLeft([]byte(args), " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		var b bytes.Buffer
		if json.Compact(&b, t) == nil {
			if b.Len() == len(args) {
				return b.Bytes(), nil // already compact: the text itself
			}
			return b.Bytes(), &args
		}
	}
	raw, _ := marshal(map[string]string{"raw": args}) // a string always encodes
	return raw, &args
}

// UnmarshalJSON reads either form of the arguments (see ToolCall) and keeps
// members it does not know in Extra. A call in the OpenAI Chat Completions
// request shape ({"id", "type": "function", "function": {"name",
// "arguments"}}, the arguments a JSON string; OpenAI API reference,
// "tool_calls"), as files other tools wrote hold it, is read as the same
// call: its function member becomes Name and Arguments.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	var w toolCallWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	fn := openAIFunction(data, &w)
	*c = ToolCall{ID: w.ID, Type: w.Type, Name: w.Name}
	switch a := bytes.TrimLeft(w.Arguments, " \t\r\n"); {
	case w.ArgumentsText != nil:
		c.Arguments = *w.ArgumentsText
	case len(a) == 0 || string(a) == "null":
	case a[0] == '"':
		if err := json.Unmarshal(a, &c.Arguments); err != nil {
			return err
		}
	default:
		var b bytes.Buffer
		if err := json.Compact(&b, a); err != nil {
			return fmt.Errorf("tool call %q: arguments: %w", w.ID, err)
		}
		c.Arguments = b.String()
	}
	extra, err := unknownKeys(data, knownToolCallKeys)
	if fn {
		delete(extra, "function")
		if len(extra) == 0 {
			extra = nil
		}
	}
	c.Extra = extra
	return err
}

// openAIFunction fills w's name and arguments from the call's OpenAI-shape
// "function" member when w has no name of its own, and reports whether it
// did; a function member of another shape stays in Extra.
func openAIFunction(data []byte, w *toolCallWire) bool {
	if w.Name != "" || !bytes.Contains(data, []byte(`"function"`)) {
		return false
	}
	var o struct {
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	if json.Unmarshal(data, &o) != nil || o.Function == nil || o.Function.Name == "" {
		return false
	}
	w.Name = o.Function.Name
	if len(bytes.TrimSpace(w.Arguments)) == 0 && w.ArgumentsText == nil {
		w.Arguments = o.Function.Arguments
	}
	return true
}
