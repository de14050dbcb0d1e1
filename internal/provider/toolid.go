package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/message"
)

// IDRule is what a provider accepts as a tool-call id.
type IDRule struct {
	// Allowed reports whether a character may appear in an id; nil allows
	// every character.
	Allowed func(r rune) bool
	// MaxLen is the longest id accepted, in bytes; 0 means no limit.
	MaxLen int
}

// accepts reports whether id passes the rule.
func (r IDRule) accepts(id string) bool {
	if id == "" || (r.MaxLen > 0 && len(id) > r.MaxLen) {
		return false
	}
	return r.Allowed == nil || strings.IndexFunc(id, func(c rune) bool { return !r.Allowed(c) }) < 0
}

// idHashLen is how many hex digits of the hash end a mapped id.
const idHashLen = 12

// MapToolCallIDs returns msgs with the id of every tool call, and the
// tool_call_id of the results answering it, replaced by one rule accepts
// when the original is not accepted or was already used earlier in the
// request (providers refuse duplicate ids: OpenAI "Duplicate value for
// 'tool_call_id'", Anthropic "`tool_use` ids must be unique"). A mapped id
// is the original's allowed characters (others become '_'), clipped to
// leave room, then '_' and 12 hex digits of the SHA-256 of the original id
// and the position of its call: the same history always maps to the same
// ids, and no stored id changes (msgs and its messages are not modified;
// changed messages are copies).
//
// A tool message answers the call of that id in the closest assistant
// message before it, the rule message.Validate enforces.
func MapToolCallIDs(msgs []message.Message, rule IDRule) []message.Message {
	var out []message.Message
	used := map[string]bool{}
	group := map[string]string{} // original → sent, for the current assistant turn
	for i, m := range msgs {
		switch {
		case m.Role == message.RoleAssistant && len(m.ToolCalls) > 0:
			clear(group)
			var calls []message.ToolCall
			for k, c := range m.ToolCalls {
				id := c.ID
				if !rule.accepts(id) || used[id] {
					id = mappedID(c.ID, i, k, rule, used)
				}
				used[id] = true
				if _, seen := group[c.ID]; !seen {
					group[c.ID] = id
				}
				if id != c.ID {
					if calls == nil {
						calls = append([]message.ToolCall(nil), m.ToolCalls...)
					}
					calls[k].ID = id
				}
			}
			if calls != nil {
				out = ensureCopy(out, msgs, i)
				out[i].ToolCalls = calls
			}
		case m.Role == message.RoleTool:
			if id, ok := group[m.ToolCallID]; ok && id != m.ToolCallID {
				out = ensureCopy(out, msgs, i)
				out[i].ToolCallID = id
			}
		case m.Role == message.RoleAssistant:
			clear(group)
		}
	}
	if out == nil {
		return msgs
	}
	return out
}

// ensureCopy returns out, or a copy of msgs when out is still nil, so that
// message i can be changed.
func ensureCopy(out, msgs []message.Message, i int) []message.Message {
	if out == nil {
		out = append([]message.Message(nil), msgs...)
	}
	return out
}

// mappedID derives the id sent for call k of message i, original id orig.
func mappedID(orig string, i, k int, rule IDRule, used map[string]bool) string {
	var b strings.Builder
	for _, c := range orig {
		if rule.Allowed == nil || rule.Allowed(c) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	prefix := b.String()
	if prefix == "" {
		prefix = "call"
	}
	for n := 0; ; n++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d\x00%d", orig, i, k, n))
		suffix := "_" + hex.EncodeToString(sum[:])[:idHashLen]
		p := prefix
		if rule.MaxLen > 0 && len(p)+len(suffix) > rule.MaxLen {
			p = p[:max(0, rule.MaxLen-len(suffix))]
			for !utf8.ValidString(p) { // never half a character
				p = p[:len(p)-1]
			}
		}
		if id := p + suffix; rule.accepts(id) && !used[id] {
			return id
		}
	}
}
