package compact

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/message"
)

// fitAfterSummary brings a level-2 result under target by dropping whole
// message groups right after the summary at index at (never a system
// message, never the latest user request or anything after it) and
// counting them in the summary, which stays: what it says is worth more
// than the oldest kept turns. ok is false when nothing could be dropped.
func fitAfterSummary(h []message.Message, at, target int) ([]message.Message, bool) {
	limit := latestRequest(h)
	size, from, dropped, count := Size(h), at+1, 0, 0
	next := from
	for size-dropped > target && next < limit {
		end := nextGroup(h, next)
		if end > limit || h[next].Role == message.RoleSystem {
			break
		}
		for _, m := range h[next:end] {
			dropped += msgSize(&m)
			count += covered(m)
		}
		next = end
	}
	if count == 0 {
		return nil, false
	}
	sum := h[at]
	meta := *sum.Meta
	meta.SummaryOf += count
	sum.Meta = &meta
	sum.Content += fmt.Sprintf("\n\n[%d later messages were also removed to fit the context window.]", count)
	out := make([]message.Message, 0, len(h)-(next-from))
	out = append(out, h[:at]...)
	out = append(out, sum)
	return append(out, h[next:]...), true
}
