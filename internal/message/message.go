package message

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/chatcli/chatcli/internal/jsonscan"
)

// Role is who wrote a message: one of RoleUser, RoleAssistant, RoleSystem,
// RoleTool (the role names of the OpenAI chat-completions wire format).
type Role string

// The four roles of a conversation.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleTool      Role = "tool"
)

// Meta carries chatcli's bookkeeping about a message; it is never sent to a
// provider.
type Meta struct {
	// IsSummary marks a compaction summary; SummaryOf is the number of
	// earlier messages it stands for.
	IsSummary bool `json:"is_summary,omitempty"`
	SummaryOf int  `json:"summary_of,omitempty"`
	// Mode is the mode the message was written in: chat, agent or coder.
	Mode string `json:"mode,omitempty"`
	// Unanswered marks a user prompt whose reply failed or was cancelled.
	Unanswered bool `json:"unanswered,omitempty"`
	// Repair names the repair that created or changed this message
	// (see Fix.Kind); empty for ordinary messages.
	Repair string `json:"repair,omitempty"`
	// ToolError marks a role "tool" message whose call failed (refused,
	// bad arguments, non-zero exit, interrupted). Unlike the other meta
	// fields it reaches the provider: Request keeps it, and the Anthropic
	// adapter sends it as the tool_result block's is_error.
	ToolError bool `json:"tool_error,omitempty"`
	// Reasoning is the provider's own reasoning behind an assistant
	// message, kept so it can be sent back to the provider that wrote it;
	// like ToolError it reaches the provider (see Request).
	Reasoning *Reasoning `json:"reasoning,omitempty"`
	// Extra holds meta fields this build does not know, kept verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// Reasoning is what a provider sent besides the reply text as its reasoning,
// kept verbatim because some providers refuse a later request that does not
// send it back (DeepSeek and Kimi with tool calls in thinking mode;
// Anthropic's extended thinking with tool use requires the thinking blocks,
// signatures intact). It is replayed only to the provider and model that
// wrote it (Source); any other receives the message without it.
//
// Stored in meta as {"source":"anthropic/claude-sonnet-4-5","text":…,
// "blocks":[…]}.
type Reasoning struct {
	// Source is "<provider>/<model>", e.g. "openai/deepseek-reasoner".
	Source string `json:"source"`
	// Text is the OpenAI-compatible reasoning_content of the message.
	Text string `json:"text,omitempty"`
	// Blocks are Anthropic "thinking" and "redacted_thinking" content
	// blocks exactly as the API sent them, a JSON array; for Gemini, the
	// thought signatures of the message's tool calls
	// ([{"call": <index>, "thought_signature": …}]).
	Blocks json.RawMessage `json:"blocks,omitempty"`
}

// Message is one entry of a conversation history.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	Meta       *Meta      `json:"meta,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Images are the images attached to the message.
	Images []Image `json:"images,omitempty"`
	// Extra holds fields this build does not know, kept verbatim and written
	// back after the known ones.
	Extra map[string]json.RawMessage `json:"-"`
}

// wire is the JSON shape of a Message, without its methods so encoding/json
// handles it with its fast path. IsError is ChatCLI's mark of a failed tool
// result (models.Message.IsError): it is read into Meta.ToolError and
// written from it. plainMeta is Meta without its methods.
type wire struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	Meta       *Meta      `json:"meta,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Images     []Image    `json:"images,omitempty"`
	IsError    bool       `json:"is_error,omitempty"`
}
type plainMeta Meta

func toWire(m *Message) wire {
	return wire{m.Role, m.Content, m.Meta, m.ToolCalls, m.ToolCallID, m.Images, m.Meta != nil && m.Meta.ToolError}
}

func (w *wire) message() Message {
	m := Message{Role: w.Role, Content: w.Content, Meta: w.Meta, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID, Images: w.Images}
	if w.IsError {
		if m.Meta == nil {
			m.Meta = &Meta{}
		}
		m.Meta.ToolError = true
	}
	return m
}

var knownMessageKeys = map[string]bool{
	"role": true, "content": true, "meta": true, "tool_calls": true,
	"tool_call_id": true, "images": true, "is_error": true,
}

var knownMetaKeys = map[string]bool{
	"is_summary": true, "summary_of": true, "mode": true, "unanswered": true, "repair": true,
	"tool_error": true, "reasoning": true,
}

var encoders = sync.Pool{New: func() any {
	b := new(bytes.Buffer)
	e := json.NewEncoder(b)
	e.SetEscapeHTML(false)
	return &pooledEncoder{buf: b, enc: e}
}}

type pooledEncoder struct {
	buf *bytes.Buffer
	enc *json.Encoder
}

// AppendJSON appends the compact JSON encoding of m to dst and returns the
// extended slice. It is the fast path used by the session store: no HTML
// escaping, unknown fields (Extra) appended after the known ones in key
// order. Invalid UTF-8 in any string becomes U+FFFD.
func AppendJSON(dst []byte, m *Message) ([]byte, error) {
	p := encoders.Get().(*pooledEncoder)
	defer encoders.Put(p)
	p.buf.Reset()
	if err := p.enc.Encode(toWire(m)); err != nil {
		return dst, err
	}
	out := bytes.TrimRight(p.buf.Bytes(), "\n")
	if len(m.Extra) == 0 {
		return append(dst, out...), nil
	}
	return appendExtra(append(dst, out[:len(out)-1]...), m.Extra), nil
}

// appendExtra appends ,"k":v for every key of extra in sorted order and the
// closing brace of the object.
func appendExtra(dst []byte, extra map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		dst = append(dst, ',')
		dst = append(dst, kb...)
		dst = append(dst, ':')
		dst = append(dst, extra[k]...)
	}
	return append(dst, '}')
}

// marshal is json.Marshal without HTML escaping, the way every message
// text is written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// MarshalJSON encodes m like AppendJSON.
func (m Message) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, &m)
}

// UnmarshalJSON decodes a message and keeps fields it does not know in Extra.
func (m *Message) UnmarshalJSON(data []byte) error {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		*m = Message{}
		return err
	}
	*m = w.message()
	extra, err := unknownKeys(data, knownMessageKeys)
	m.Extra = extra
	return err
}

// MarshalJSON encodes the known meta fields followed by Extra.
func (mt Meta) MarshalJSON() ([]byte, error) {
	b, err := marshal(plainMeta(mt))
	if err != nil || len(mt.Extra) == 0 {
		return b, err
	}
	if len(b) == 2 { // "{}"
		out := appendExtra([]byte{'{'}, mt.Extra)
		return append(out[:1], out[2:]...), nil
	}
	return appendExtra(b[:len(b)-1], mt.Extra), nil
}

// UnmarshalJSON decodes meta and keeps fields it does not know in Extra.
func (mt *Meta) UnmarshalJSON(data []byte) error {
	*mt = Meta{}
	if err := json.Unmarshal(data, (*plainMeta)(mt)); err != nil {
		return err
	}
	extra, err := unknownKeys(data, knownMetaKeys)
	mt.Extra = extra
	return err
}

// unknownKeys returns the top-level members of the JSON object data whose
// keys are not in known, or nil when there are none.
func unknownKeys(data []byte, known map[string]bool) (map[string]json.RawMessage, error) {
	members, err := jsonscan.Members(data)
	if err != nil {
		return nil, err
	}
	var extra map[string]json.RawMessage
	for _, m := range members {
		if known[m.Key] {
			continue
		}
		if extra == nil {
			extra = map[string]json.RawMessage{}
		}
		extra[m.Key] = append(json.RawMessage(nil), m.Value...)
	}
	return extra, nil
}

// DecodeList decodes a JSON array of messages, as UnmarshalJSON would each
// element, but in two passes over the whole array instead of several per
// message: encoding/json's struct decoder for the known fields, then a byte
// scan of each element for unknown members (kept in Extra). Errors are
// encoding/json's (*json.SyntaxError, *json.UnmarshalTypeError).
func DecodeList(data []byte) ([]Message, error) {
	var ps []wire
	if err := json.Unmarshal(data, &ps); err != nil {
		return nil, err
	}
	elems, err := jsonscan.Elements(data)
	if err != nil || len(elems) != len(ps) {
		return nil, fmt.Errorf("message: split list: %v", err)
	}
	out := make([]Message, len(ps))
	for k := range ps {
		out[k] = ps[k].message()
		if out[k].Extra, err = unknownKeys(elems[k], knownMessageKeys); err != nil {
			return nil, err
		}
	}
	return out, nil
}
