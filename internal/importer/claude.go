package importer

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// Claude Code keeps each conversation as a JSON Lines file,
// ~/.claude/projects/<folder with '/' as '-'>/<sessionId>.jsonl. Each line
// is an entry {"type", "uuid", "parentUuid", "sessionId", "cwd",
// "timestamp", "isSidechain", "isMeta", "message"}: "user" entries carry
// {"role":"user","content": text or blocks}, tool results being
// {"type":"tool_result","tool_use_id","content","is_error"} blocks;
// "assistant" entries carry an Anthropic Messages API message whose
// content blocks are "text", "tool_use" {"id","name","input"} and
// "thinking"; one reply may be written as several entries with the same
// message.id, one block each. {"type":"summary","summary"} lines give the
// conversation's title. Other entry types (system, file-history-snapshot,
// queue-operation, progress, …) hold no conversation and are passed over;
// sidechain entries (a subagent's own turns) and isMeta entries (notes
// Claude Code adds for the model) are left out; "thinking" blocks become
// the reasoning of the reply (message.Reasoning, source
// "claude-code/<model>", never sent to a provider).
//
// A resumed conversation is a new file: its entries link to the earlier
// file's by parentUuid (its first entry's parent is the earlier file's
// last entry) and may carry the earlier sessionId (anthropics/claude-code
// issue 30606: continuation files whose inner sessionId is the original's)
// or repeat the earlier entries. So the conversation's ID is the file's
// own (its name, <sessionId>.jsonl), Continues names the entry outside
// the file it continues, Lineage the other sessionId its entries carry,
// Leaf its last entry, and each message keeps the uuid of the entry it
// came from (its "source_uuid" member): Writer extends the earlier
// session with the messages it does not hold yet.

type claudeEntry struct {
	Type        string         `json:"type"`
	UUID        string         `json:"uuid"`
	ParentUUID  string         `json:"parentUuid"`
	SessionID   string         `json:"sessionId"`
	Cwd         string         `json:"cwd"`
	Timestamp   string         `json:"timestamp"`
	IsSidechain bool           `json:"isSidechain"`
	IsMeta      bool           `json:"isMeta"`
	Summary     string         `json:"summary"`
	Message     *claudeMessage `json:"message"`
}

type claudeMessage struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Thinking  string          `json:"thinking"`
}

// claudeCode reads Claude Code's projects folder.
var claudeCode = Source{
	Name:    "claude-code",
	Prefix:  "claude",
	Default: []string{".claude/projects"},
	HomeVar: "CLAUDE_CONFIG_DIR",
	HomeSub: "projects",
	Match: func(path string) bool {
		base := filepath.Base(path)
		return strings.HasSuffix(base, ".jsonl") && !strings.HasPrefix(base, "agent-") &&
			!strings.Contains(filepath.ToSlash(path), "/subagents/")
	},
	Read: readClaude,
}

func readClaude(path string) ([]Conversation, []Problem, error) {
	var b builder
	c := Conversation{Tool: "claude-code", Path: path}
	seen := map[string]bool{} // blocks of a reply written more than once
	held := map[string]bool{} // the uuids of the file's entries
	var first string          // the parent of the file's first entry
	sessions := map[string]bool{}
	problems, err := readLines(path, func(_ int, raw []byte) error {
		var e claudeEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return notJSON(err)
		}
		if e.UUID != "" && !e.IsSidechain {
			if len(held) == 0 {
				first = e.ParentUUID
			}
			held[e.UUID], c.Leaf = true, e.UUID
		}
		if e.SessionID != "" {
			sessions[e.SessionID] = true
		}
		b.entry = e.UUID
		switch e.Type {
		case "summary":
			if e.Summary != "" {
				c.Title = e.Summary
			}
			return nil
		case "user", "assistant":
		case "":
			return errForeign
		default:
			return nil
		}
		if e.Message == nil {
			return errForeign
		}
		if c.ID == "" {
			c.ID = e.SessionID
		}
		if e.Cwd != "" {
			c.Folder = e.Cwd
		}
		if e.IsSidechain || e.IsMeta {
			return nil
		}
		at := parseTime(e.Timestamp)
		var text string
		if json.Unmarshal(e.Message.Content, &text) == nil {
			if e.Type == "user" {
				b.user(text, at)
			} else {
				b.assistant(text, at)
			}
			return nil
		}
		var blocks []claudeBlock
		if err := json.Unmarshal(e.Message.Content, &blocks); err != nil {
			return errForeign
		}
		claudeBlocks(&b, e.Type, e.Message, blocks, seen, at)
		return nil
	})
	claudeLineage(&c, path, first, held, sessions)
	return b.finish(c, problems, err)
}

// claudeLineage sets c's ID to the file's own session id (its name, when
// that is a UUID as Claude Code names its files), and Continues and
// Lineage to the entry and session of an earlier file it continues:
// first, its first entry's parent when no entry of the file has it; the
// other session id its entries carry.
func claudeLineage(c *Conversation, path, first string, held, sessions map[string]bool) {
	if own := strings.TrimSuffix(filepath.Base(path), ".jsonl"); isUUID(own) {
		c.ID = own
	}
	if first != "" && !held[first] {
		c.Continues = first
	}
	for id := range sessions {
		if id != c.ID && (c.Lineage == "" || id < c.Lineage) {
			c.Lineage = id
		}
	}
}

// claudeBlocks adds the content blocks of one entry; a block already seen
// under the same message id (a reply written again) is added once.
func claudeBlocks(b *builder, role string, msg *claudeMessage, blocks []claudeBlock, seen map[string]bool, at time.Time) {
	id := msg.ID
	for _, k := range blocks {
		if id != "" {
			key := id + "\x00" + k.Type + "\x00" + k.ID + "\x00" + k.Text
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		switch k.Type {
		case "text":
			if role == "user" {
				b.user(k.Text, at)
			} else {
				b.assistant(k.Text, at)
			}
		case "tool_use":
			b.call(k.ID, k.Name, string(k.Input), at)
		case "tool_result":
			b.result(k.ToolUseID, claudeResult(k.Content), k.IsError, at)
		case "image":
			if role == "user" {
				b.user("[image]", at)
			}
		case "thinking":
			if role == "assistant" && strings.TrimSpace(k.Thinking) != "" {
				b.reasoning(&message.Reasoning{Source: "claude-code/" + msg.Model, Text: k.Thinking})
			}
		}
	}
}

// claudeResult is the text of a tool_result's content: a string, or text
// blocks joined by newlines (other blocks, images, as "[image]").
func claudeResult(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []claudeBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return rawText(raw)
	}
	parts := make([]string, 0, len(blocks))
	for _, k := range blocks {
		if k.Type == "text" {
			parts = append(parts, k.Text)
		} else {
			parts = append(parts, "["+k.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hexadecimal form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
}
