package compact

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
)

// Level-1 limits: a tool output over hugeOutputBytes keeps its first
// headBytes and last tailBytes; a result shorter than minDuplicateBytes is
// never replaced by a marker (the marker would not be shorter).
const (
	hugeOutputBytes   = 8 << 10
	headBytes         = 3 << 10
	tailBytes         = 1 << 10
	minDuplicateBytes = 48
)

// trimStats counts what level 1 changed.
type trimStats struct {
	reasoning, duplicates, rereads, shortened, squeezed int
}

func (s trimStats) changed() bool { return s != trimStats{} }

// String lists the non-zero counts, e.g. "2 reasoning blocks, 3 duplicate
// results, 1 output shortened".
func (s trimStats) String() string {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(s.reasoning, "reasoning block", "reasoning blocks")
	add(s.duplicates, "duplicate result", "duplicate results")
	add(s.rereads, "repeated read", "repeated reads")
	add(s.shortened, "output shortened", "outputs shortened")
	add(s.squeezed, "message squeezed", "messages squeezed")
	return strings.Join(parts, ", ")
}

// trim applies level 1 to the messages of h before p.keepCut, except system
// messages, summaries and the latest user request. It returns h itself
// when nothing changed, and otherwise a copy: h is never modified.
func trim(h []message.Message, p plan) ([]message.Message, trimStats) {
	var st trimStats
	var out []message.Message
	calls := callsOf(h)
	dups := duplicates(h, calls, p.keepCut)
	for i := range p.keepCut {
		m := h[i]
		if m.Role == message.RoleSystem || i == p.latest || isSummary(m) {
			continue
		}
		var s string
		if d, ok := dups[i]; ok {
			s = d.marker
			if d.reread {
				st.rereads++
			} else {
				st.duplicates++
			}
		} else {
			s = trimText(m, &st)
		}
		if s == m.Content {
			continue
		}
		if out == nil {
			out = slices.Clone(h)
		}
		out[i].Content = s
	}
	if out == nil {
		return h, st
	}
	return out, st
}

// trimText strips, cleans, squeezes and shortens the text of one message
// and counts what it did in st; the text comes back unchanged unless it got
// shorter.
func trimText(m message.Message, st *trimStats) string {
	var my trimStats
	s := m.Content
	switch m.Role {
	case message.RoleAssistant:
		s, my.reasoning = stripReasoning(s)
		if my.reasoning > 0 && strings.TrimSpace(s) == "" && len(m.ToolCalls) == 0 {
			s = "[reasoning removed]"
		}
	case message.RoleTool:
		s = cleanTerminal(s)
	}
	if sq := squeeze(s); sq != s {
		s = sq
		if my.reasoning == 0 {
			my.squeezed = 1
		}
	}
	if m.Role == message.RoleTool && len(s) > hugeOutputBytes {
		if short, ok := headTail(s, headBytes, tailBytes); ok {
			s, my.shortened = short, 1
		}
	}
	if len(s) >= len(m.Content) {
		return m.Content
	}
	if my.reasoning == 0 && my.shortened == 0 {
		my.squeezed = 1 // terminal clean-up only
	}
	st.reasoning += my.reasoning
	st.squeezed += my.squeezed
	st.shortened += my.shortened
	return s
}

// callsOf returns, for each tool message of h, the call it answers (by
// position: ids are only unique within one assistant turn).
func callsOf(h []message.Message) []message.ToolCall {
	out := make([]message.ToolCall, len(h))
	var turn []message.ToolCall
	for i, m := range h {
		switch m.Role {
		case message.RoleAssistant:
			turn = m.ToolCalls
		case message.RoleTool:
			for _, c := range turn {
				if c.ID == m.ToolCallID {
					out[i] = c
					break
				}
			}
		}
	}
	return out
}

// dup is the marker that replaces an older copy of a tool result.
type dup struct {
	marker string
	reread bool
}

// duplicates finds, before keepCut, the tool results that a later one in h
// makes redundant: an identical result, or a read of the same file with the
// same arguments. The latest copy is always kept.
func duplicates(h []message.Message, calls []message.ToolCall, keepCut int) map[int]dup {
	out := map[int]dup{}
	contents := map[string]bool{}
	reads := map[string]bool{}
	for i := len(h) - 1; i >= 0; i-- {
		m := h[i]
		if m.Role != message.RoleTool {
			continue
		}
		key, path := readKey(calls[i])
		reread := key != "" && reads[key]
		if key != "" {
			reads[key] = true
		}
		if len(m.Content) < minDuplicateBytes || m.Content == message.InterruptedResult {
			continue
		}
		same := contents[m.Content]
		contents[m.Content] = true
		if i >= keepCut {
			continue
		}
		var d dup
		switch {
		case same:
			d.marker = fmt.Sprintf("[duplicate: this %s output appears again later; %d bytes removed]", toolName(calls[i]), len(m.Content))
		case reread:
			d = dup{fmt.Sprintf("[superseded: %s was read again later; %d bytes removed]", code(message.Clip(path, factChars)), len(m.Content)), true}
		}
		if d.marker != "" && len(d.marker) < len(m.Content) {
			out[i] = d
		}
	}
	return out
}

func toolName(c message.ToolCall) string {
	if c.Name == "" {
		return "tool"
	}
	return message.Clip(c.Name, 60)
}
