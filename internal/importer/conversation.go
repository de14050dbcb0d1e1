package importer

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// Conversation is one conversation read from another tool's files, in
// chatcli's message shapes.
type Conversation struct {
	// Tool is the Source's name ("claude-code", "codex", "gemini",
	// "opencode"); ID is the tool's own id of the conversation (Claude
	// Code's sessionId, Codex's session_meta id, Gemini CLI's sessionId,
	// opencode's ses_… id).
	Tool, ID string
	// Path is the file it was read from.
	Path string
	// Title is the tool's own title (Claude Code's summary line, Gemini
	// CLI's summary, opencode's title); "" when it kept none.
	Title string
	// Folder is the working folder the conversation ran in; "" when the
	// file does not say.
	Folder string
	// Created and Updated are the times of its first and last records
	// (zero when the file gives none).
	Created, Updated time.Time
	// Continues is the uuid of an entry in another file this
	// conversation continues (a resumed Claude Code session), Lineage
	// another session id its entries carry, and Leaf the uuid of its last
	// entry; "" for tools without them (see claude.go).
	Continues, Lineage, Leaf string
	// Messages are the conversation in order: user and assistant text,
	// assistant tool calls, and their results as role "tool" messages.
	// Each message's time, when known, is in its Extra["timestamp"]
	// (RFC 3339). They are as the file has them: Writer repairs the
	// sequence (message.Repair) before saving.
	Messages []message.Message
	// Compactions are the places, in order, where the tool compacted the
	// conversation (compaction.go); nil for none.
	Compactions []Compaction
}

// Problem is a line or member of a source file that was skipped: not JSON,
// or JSON without the shape the tool writes.
type Problem struct {
	// Path is the file; Line its 1-based line (0 for a whole-document
	// format).
	Path string
	Line int
	// Reason says why it was skipped (an i18n error: Printer.Error says
	// it in the reader's language).
	Reason error
}

// Where is "path:line" (or "path" without a line).
func (p Problem) Where() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.Path, p.Line)
	}
	return p.Path
}

// String is "path:line: reason" (or "path: reason" without a line).
func (p Problem) String() string { return p.Where() + ": " + p.Reason.Error() }

// builder turns the events of a source file (user text, assistant text,
// tool calls, tool results) into a chatcli history: text and the calls
// that follow it form one assistant message, results follow as tool
// messages, and text after results starts a new assistant message.
type builder struct {
	msgs             []message.Message
	created, updated time.Time
	// thought is reasoning waiting for the assistant message it led to.
	thought *message.Reasoning
	// entry is the source entry's id, kept by each message it starts in
	// its SourceIDMember ("" for none).
	entry string
	// compactions are those recorded so far (compacted); the history the
	// model held is then liveBase messages of the last one's History and
	// msgs from index liveFrom on.
	compactions        []Compaction
	liveBase, liveFrom int
}

// SourceIDMember is the message member holding the id of the source
// entry a message came from (Claude Code's uuid), by which Writer tells
// the messages a resumed conversation repeats.
const SourceIDMember = "source_uuid"

// reasoning keeps r (nil: none) for the next assistant text or tool call
// (message.Meta.Reasoning); reasoning that is never followed by one is
// dropped with nothing to attach it to.
func (b *builder) reasoning(r *message.Reasoning) {
	if r == nil {
		return
	}
	if b.thought != nil {
		r.Text = b.thought.Text + "\n\n" + r.Text
	}
	b.thought = r
}

// think attaches the waiting reasoning to m.
func (b *builder) think(m *message.Message) {
	if b.thought == nil {
		return
	}
	if m.Meta == nil {
		m.Meta = &message.Meta{}
	}
	if m.Meta.Reasoning != nil {
		b.thought.Text = m.Meta.Reasoning.Text + "\n\n" + b.thought.Text
	}
	m.Meta.Reasoning, b.thought = b.thought, nil
}

// summary appends a user message marked as a compaction summary
// (message.Meta.IsSummary), as ChatCLI marks its own.
func (b *builder) summary(text string, at time.Time) {
	if strings.TrimSpace(text) == "" {
		return
	}
	b.add(message.Message{Role: message.RoleUser, Content: text, Meta: &message.Meta{IsSummary: true}}, at)
}

// saw notes the time of a record, for Created and Updated.
func (b *builder) saw(at time.Time) {
	if at.IsZero() {
		return
	}
	if b.created.IsZero() || at.Before(b.created) {
		b.created = at
	}
	if at.After(b.updated) {
		b.updated = at
	}
}

// add appends m stamped with at.
func (b *builder) add(m message.Message, at time.Time) {
	b.saw(at)
	if !at.IsZero() || b.entry != "" {
		m.Extra = map[string]json.RawMessage{}
	}
	if !at.IsZero() {
		m.Extra["timestamp"], _ = json.Marshal(at.UTC().Format(time.RFC3339Nano))
	}
	if b.entry != "" {
		m.Extra[SourceIDMember], _ = json.Marshal(b.entry)
	}
	b.msgs = append(b.msgs, m)
}

// last is the last message, nil when there is none.
func (b *builder) last() *message.Message {
	if len(b.msgs) == 0 {
		return nil
	}
	return &b.msgs[len(b.msgs)-1]
}

// user appends a user message; blank text is dropped.
func (b *builder) user(text string, at time.Time) {
	if strings.TrimSpace(text) == "" {
		return
	}
	b.add(message.Message{Role: message.RoleUser, Content: text}, at)
}

// assistant appends assistant text: to the last message when it is an
// assistant message without tool calls (the blocks of one reply), else as
// a new message. Blank text is dropped.
func (b *builder) assistant(text string, at time.Time) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if l := b.last(); l != nil && l.Role == message.RoleAssistant && len(l.ToolCalls) == 0 {
		l.Content += "\n\n" + text
		b.think(l)
		b.saw(at)
		return
	}
	m := message.Message{Role: message.RoleAssistant, Content: text}
	b.think(&m)
	b.add(m, at)
}

// call appends a tool call with its arguments (JSON text or any text) to
// the last message when it is an assistant message, else to a new one.
func (b *builder) call(id, name, args string, at time.Time) {
	c := message.ToolCall{ID: id, Type: "function", Name: name, Arguments: args}
	if l := b.last(); l != nil && l.Role == message.RoleAssistant {
		l.ToolCalls = append(l.ToolCalls, c)
		b.think(l)
		b.saw(at)
		return
	}
	m := message.Message{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{c}}
	b.think(&m)
	b.add(m, at)
}

// result appends the result of call id; failed marks a call that failed
// (message.Meta.ToolError).
func (b *builder) result(id, output string, failed bool, at time.Time) {
	m := message.Message{Role: message.RoleTool, Content: output, ToolCallID: id}
	if failed {
		m.Meta = &message.Meta{ToolError: true}
	}
	b.add(m, at)
}

// finish ends the reading of one JSON Lines file: c with what was built,
// its ID the file's name when the file named none; nothing but the
// problems when err (the file's own error) is set.
func (b *builder) finish(c Conversation, problems []Problem, err error) ([]Conversation, []Problem, error) {
	if err != nil {
		return nil, problems, err
	}
	if c.ID == "" {
		c.ID = strings.TrimSuffix(filepath.Base(c.Path), filepath.Ext(c.Path))
	}
	return []Conversation{b.conversation(c)}, problems, nil
}

// conversation returns what was built as c's messages and times.
func (b *builder) conversation(c Conversation) Conversation {
	c.Messages, c.Created, c.Updated, c.Compactions = b.msgs, b.created, b.updated, b.compactions
	return c
}

// parseTime reads an RFC 3339 time; zero when s is not one.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// rawText is the text of a JSON value: a string as it is, anything else
// (an object, an array) as its JSON; "" for null or nothing.
func rawText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}
