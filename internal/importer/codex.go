package importer

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// Codex records each session as a rollout, a JSON Lines file
// ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, each line
// {"timestamp", "type", "payload"} (codex-rs protocol RolloutLine):
// "session_meta" {id, timestamp, cwd, …} first, then "response_item"
// payloads, the Responses API items the model saw: "message" {role,
// content: [{type: input_text|output_text, text}]}, "function_call"
// {name, arguments (JSON text), call_id}, "function_call_output"
// {call_id, output}, "custom_tool_call" {name, input, call_id},
// "custom_tool_call_output", "local_shell_call" {call_id, action}, and
// "reasoning" {summary: [{type: summary_text, text}], content,
// encrypted_content}: its summary (and content) text is kept as the
// reasoning of the assistant message that follows (message.Reasoning,
// source "codex/<model>", never sent to a provider; the encrypted part,
// which only OpenAI can read, is left out). A "compacted" line
// {message, replacement_history} is where Codex compacted the
// conversation: its summary becomes a user message marked as a summary
// (meta.is_summary) after the messages it summarised, and its
// replacement_history, the history Codex's model went on from, a
// Compaction the import keeps as chatcli keeps its own (codexCompaction,
// compaction.go). "turn_context" gives the
// model; "event_msg" lines repeat what the items hold, and are passed
// over. Rollouts written before session_meta existed have the meta object
// as the first line and the items bare on the following lines. Messages
// Codex adds for the model (developer instructions, the
// <environment_context> and AGENTS.md user messages) are left out.

type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	// ID, Cwd and RecordType are members of the older layout.
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	RecordType string `json:"record_type"`
}

type codexItem struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	Status    string          `json:"status"`
}

type codexText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codexPayload is a turn_context or compacted payload; a compacted
// line's ReplacementHistory is nil when the line has none.
type codexPayload struct {
	Model              string            `json:"model"`
	Message            string            `json:"message"`
	ReplacementHistory []json.RawMessage `json:"replacement_history"`
}

type codexMeta struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

// codex reads Codex's rollouts.
var codex = Source{
	Name:    "codex",
	Prefix:  "codex",
	Default: []string{".codex/sessions"},
	HomeVar: "CODEX_HOME",
	HomeSub: "sessions",
	Match: func(path string) bool {
		base := filepath.Base(path)
		return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
	},
	Read: readCodex,
}

// codexInjected are the openings of the user messages Codex writes itself.
var codexInjected = []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>"}

func readCodex(path string) ([]Conversation, []Problem, error) {
	var b builder
	c := Conversation{Tool: "codex", Path: path}
	model := ""
	problems, err := readLines(path, func(n int, raw []byte) error {
		var l codexLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return notJSON(err)
		}
		at := parseTime(l.Timestamp)
		switch {
		case l.Type == "session_meta":
			var m codexMeta
			if err := json.Unmarshal(l.Payload, &m); err != nil {
				return errForeign
			}
			c.ID, c.Folder = m.ID, m.Cwd
			b.saw(parseTime(m.Timestamp))
			return nil
		case l.Type == "response_item":
			raw = l.Payload
		case l.Type == "turn_context":
			var p codexPayload
			if json.Unmarshal(l.Payload, &p) == nil && p.Model != "" {
				model = p.Model
			}
			return nil
		case l.Type == "compacted":
			var p codexPayload
			if err := json.Unmarshal(l.Payload, &p); err != nil {
				return errForeign
			}
			codexCompaction(&b, p, at)
			return nil
		case l.Type == "event_msg", l.RecordType != "":
			return nil
		case n == 1 && l.ID != "" && l.Type == "": // the older layout's meta line
			c.ID, c.Folder = l.ID, l.Cwd
			b.saw(at)
			return nil
		case l.Payload != nil:
			return nil // a record type of a newer Codex
		case l.Type == "":
			return errForeign
		}
		var it codexItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return errForeign
		}
		if it.Type == "reasoning" {
			b.reasoning(codexReasoning(raw, model))
			return nil
		}
		codexAdd(&b, it, at)
		return nil
	})
	return b.finish(c, problems, err)
}

// codexSummaryNote opens the summary message of a compacted line.
const codexSummaryNote = "[Codex compacted the conversation here; the model went on from this summary]\n\n"

// codexSealedSummary is the summary text of a compaction whose summary
// only OpenAI can read (a "compaction" item's encrypted_content).
const codexSealedSummary = "(Codex's summary is encrypted; only OpenAI can read it)"

// codexCompaction reads a compacted line p at time at. With a
// replacement_history (the history Codex's model went on from, which its
// resume puts in place of everything before: reconstruct_history_from_
// rollout in codex-rs/core), the line is a compaction (Compaction): the
// replacement's items in chatcli's shapes, the summary among them. The
// summary is the replacement's user message holding p's message; when
// the message is empty (a remote compaction), the first user message the
// history did not hold before; else it stands where a "compaction" item
// (encrypted) is, or last. Without a replacement_history (older Codex),
// the summary follows the messages it summarised, which stay.
func codexCompaction(b *builder, p codexPayload, at time.Time) {
	if p.ReplacementHistory == nil {
		b.summary(codexSummaryNote+p.Message, at)
		return
	}
	held := b.liveUserTexts()
	var kept builder
	pos, summary := -1, p.Message
	for _, raw := range p.ReplacementHistory {
		var it codexItem
		if json.Unmarshal(raw, &it) != nil {
			continue
		}
		if pos < 0 && (it.Type == "compaction" || it.Type == "compaction_summary") {
			pos = len(kept.msgs)
			continue
		}
		if text := codexMessageText(it); pos < 0 && it.Type == "message" && it.Role == "user" && !codexIsInjected(text) &&
			(summary != "" && text == summary || summary == "" && !held[text]) {
			pos, summary = len(kept.msgs), text
			continue
		}
		codexAdd(&kept, it, time.Time{})
	}
	if pos < 0 {
		pos = len(kept.msgs)
	}
	if strings.TrimSpace(summary) == "" {
		summary = codexSealedSummary
	}
	b.compacted(codexSummaryNote+summary, at, kept.msgs, pos)
}

// codexReasoning is the reasoning of a reasoning item raw (nil when it
// holds no text): its summary parts, then its content parts, joined by
// blank lines.
func codexReasoning(raw json.RawMessage, model string) *message.Reasoning {
	var r struct {
		Summary []codexText `json:"summary"`
		Content []codexText `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	var parts []string
	for _, t := range append(r.Summary, r.Content...) {
		if strings.TrimSpace(t.Text) != "" {
			parts = append(parts, t.Text)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	if model == "" {
		model = "unknown"
	}
	return &message.Reasoning{Source: "codex/" + model, Text: strings.Join(parts, "\n\n")}
}

// codexAdd adds one response item.
func codexAdd(b *builder, it codexItem, at time.Time) {
	switch it.Type {
	case "message":
		text := codexMessageText(it)
		switch it.Role {
		case "user":
			if codexIsInjected(text) {
				return
			}
			b.user(text, at)
		case "assistant":
			b.assistant(text, at)
		}
	case "function_call":
		b.call(it.CallID, it.Name, it.Arguments, at)
	case "custom_tool_call":
		b.call(it.CallID, it.Name, it.Input, at)
	case "local_shell_call":
		b.call(it.CallID, "local_shell", string(it.Action), at)
	case "function_call_output", "custom_tool_call_output":
		out, failed := codexOutput(it.Output)
		b.result(it.CallID, out, failed, at)
	}
}

// codexMessageText is the text of a message item: its parts' texts, one
// per line.
func codexMessageText(it codexItem) string {
	parts := make([]string, 0, len(it.Content))
	for _, p := range it.Content {
		parts = append(parts, p.Text)
	}
	return strings.Join(parts, "\n")
}

// codexIsInjected reports whether user text is one Codex writes itself
// for the model (codexInjected).
func codexIsInjected(text string) bool {
	for _, p := range codexInjected {
		if strings.HasPrefix(strings.TrimSpace(text), p) {
			return true
		}
	}
	return false
}

// codexOutput reads a call's output: a string; an object {content,
// success} (success false: the call failed); or content items
// [{type, text}] joined by newlines.
func codexOutput(raw json.RawMessage) (string, bool) {
	var obj struct {
		Content *string `json:"content"`
		Success *bool   `json:"success"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Content != nil {
		return *obj.Content, obj.Success != nil && !*obj.Success
	}
	var items []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) == nil {
		parts := make([]string, 0, len(items))
		for _, it := range items {
			parts = append(parts, it.Text)
		}
		return strings.Join(parts, "\n"), false
	}
	return rawText(raw), false
}
