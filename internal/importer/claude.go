package importer

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
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
// Claude Code adds for the model) are left out.

type claudeEntry struct {
	Type        string         `json:"type"`
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
	problems, err := readLines(path, func(_ int, raw []byte) error {
		var e claudeEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			return notJSON(err)
		}
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
		claudeBlocks(&b, e.Type, e.Message.ID, blocks, seen, at)
		return nil
	})
	return b.finish(c, problems, err)
}

// claudeBlocks adds the content blocks of one entry; a block already seen
// under the same message id (a reply written again) is added once.
func claudeBlocks(b *builder, role, id string, blocks []claudeBlock, seen map[string]bool, at time.Time) {
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
