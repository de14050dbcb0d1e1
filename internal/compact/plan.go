package compact

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/message"
)

// plan is where a history is cut.
type plan struct {
	// keepCut starts the verbatim tail of Options.Keep messages, moved
	// earlier to a tool-group boundary. Level 1 trims before it.
	keepCut int
	// cut starts what levels 2 and 3 keep: keepCut, moved earlier to the
	// latest user request, or to just after a summary it would keep.
	cut int
	// latest is the index of the latest user request, -1 if none.
	latest int
}

func makePlan(h []message.Message, keep int) plan {
	p := plan{keepCut: groupStart(h, max(len(h)-max(keep, 0), 0)), latest: latestRequest(h)}
	p.cut = p.keepCut
	if p.latest >= 0 && p.latest < p.cut {
		p.cut = p.latest
	}
	if s := lastSummary(h); s >= p.cut {
		if s < p.latest {
			// Fold it: one summary afterwards. A message after a user
			// message is never a tool result, so s+1 is a group boundary.
			p.cut = s + 1
		} else {
			// Folding would take the latest request with it: no middle.
			p.cut = 0
		}
	}
	return p
}

// groupStart moves k back to the start of the tool group it falls in: a
// tool result is never the first message kept.
func groupStart(h []message.Message, k int) int {
	for k > 0 && k < len(h) && h[k].Role == message.RoleTool {
		k--
	}
	return k
}

// nextGroup returns the index after the group (or message) starting at k.
func nextGroup(h []message.Message, k int) int {
	k++
	for k < len(h) && h[k].Role == message.RoleTool {
		k++
	}
	return k
}

// latestRequest is the index of the last user message that is a person's
// request (not a summary, marker or repair note), or -1.
func latestRequest(h []message.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		m := h[i]
		if m.Role == message.RoleUser && (m.Meta == nil || (!m.Meta.IsSummary && m.Meta.Repair == "")) {
			return i
		}
	}
	return -1
}

// isSummary reports whether m is a summary or truncation marker that a
// compaction may fold. Summaries in the system role are system messages,
// kept verbatim like any other.
func isSummary(m message.Message) bool {
	return m.Meta != nil && m.Meta.IsSummary && m.Role != message.RoleSystem
}

func lastSummary(h []message.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if isSummary(h[i]) {
			return i
		}
	}
	return -1
}

// covered is how many original messages m stands for.
func covered(m message.Message) int {
	if isSummary(m) && m.Meta.SummaryOf > 0 {
		return m.Meta.SummaryOf
	}
	return 1
}

// coveredBy is the SummaryOf of the last summary in h, 0 if none.
func coveredBy(h []message.Message) int {
	if s := lastSummary(h); s >= 0 {
		return h[s].Meta.SummaryOf
	}
	return 0
}

// summarisable returns the non-system messages of middle, or nil when a
// summary could not gain anything: none, or only one earlier summary.
func summarisable(middle []message.Message) []message.Message {
	var out []message.Message
	for _, m := range middle {
		if m.Role != message.RoleSystem {
			out = append(out, m)
		}
	}
	if len(out) == 1 && isSummary(out[0]) {
		return nil
	}
	return out
}

// Size is the bytes of text of h: message contents, tool-call names and
// arguments, plus imageBytes for each image whatever the length of its
// reference: an image costs a model about imageTokens, not the length of
// its data URL, so a screenshot never makes a history look larger than it
// is to the model (and is never truncated away for it).
func Size(h []message.Message) int {
	n := 0
	for i := range h {
		n += msgSize(&h[i])
	}
	return n
}

func msgSize(m *message.Message) int {
	n := len(m.Content)
	for _, c := range m.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n + imageBytes*len(m.Images)
}

// Token estimate parameters. One token per 3 bytes of text over-counts
// English (about 4 bytes a token) and matches dense text (code, JSON, CJK
// at about one token per character); each message adds the 4 tokens of
// its role framing, each tool call 8 more for its id and type; an image
// counts as imageTokens (the largest a provider bills for one image)
// rather than by the size of its data URL.
// BytesPerToken is the estimate's ratio of text bytes to tokens.
const BytesPerToken = 3

// imageBytes is what an image adds to Size: imageTokens at BytesPerToken.
const imageBytes = imageTokens * BytesPerToken

const (
	messageTokens  = 4
	toolCallTokens = 8
	imageTokens    = 1600
)

// EstimateTokens is a conservative (high) estimate of the tokens h costs in
// a request; see the constants above for the ratio. Callers correct it with
// the usage the provider reports.
func EstimateTokens(h []message.Message) int {
	bytes, extra := 0, 0
	for i := range h {
		m := &h[i]
		bytes += len(m.Content)
		extra += messageTokens
		for _, c := range m.ToolCalls {
			bytes += len(c.Name) + len(c.Arguments)
			extra += toolCallTokens
		}
		extra += imageTokens * len(m.Images)
	}
	return (bytes+BytesPerToken-1)/BytesPerToken + extra
}

func statsOf(h []message.Message) Stats { return Stats{Messages: len(h), Bytes: Size(h)} }

// human formats a byte count for people: 512 B, 4.2 KB, 1.8 MB.
func human(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
