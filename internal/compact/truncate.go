package compact

import (
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
)

// truncate is level 3. It drops the non-system messages of h before cut
// and, while the result is larger than target > 0, whole tool groups after
// cut up to (never including) the latest user request. System messages
// stay, in order; one marker message stands for what was dropped, placed
// after the system messages that preceded it. cause, when the summary
// failed, is named in the marker, which then also keeps the file and
// command facts of what it drops. ok is false when nothing could be
// dropped or the marker would not be smaller than what it replaces.
func truncate(h []message.Message, cut, target int, cause error) ([]message.Message, bool) {
	limit := latestRequest(h)
	if limit < 0 {
		limit = groupStart(h, len(h)-1)
	}
	from := min(cut, max(limit, 0))
	dropped, count := 0, 0
	drop := func(lo, hi int) {
		for _, m := range h[lo:hi] {
			if m.Role != message.RoleSystem {
				dropped += msgSize(&m)
				count += covered(m)
			}
		}
	}
	drop(0, from)
	size := Size(h)
	// While dropping more, the marker's facts are those of h[:cut]: an
	// estimate that keeps the loop linear.
	extra := len(truncationMarker(h[:from], count, cause)) - len(truncationMarker(nil, count, nil))
	for target > 0 && size-dropped+len(truncationMarker(nil, count, nil))+extra > target && from < limit {
		next := nextGroup(h, from)
		if next > limit {
			break
		}
		drop(from, next)
		from = next
	}
	marker := truncationMarker(h[:from], count, cause)
	if count == 0 || len(marker) >= dropped || lastSummary(h) >= from { // never two summaries
		return nil, false
	}
	out := make([]message.Message, 0, len(h)-from+8)
	for _, m := range h[:from] {
		if m.Role == message.RoleSystem {
			out = append(out, m)
		}
	}
	out = append(out, message.Message{
		Role:    message.RoleUser,
		Content: marker,
		Meta:    &message.Meta{IsSummary: true, SummaryOf: count},
	})
	return append(out, h[from:]...), true
}

// truncationMarker is the text of the marker standing for the count
// messages of gone (ChatCLI's wording when there is no cause).
func truncationMarker(gone []message.Message, count int, cause error) string {
	if cause == nil {
		return fmt.Sprintf("[CONTEXT TRUNCATED: %d earlier messages removed due to context window limit. Recent context preserved below.]", count)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[CONTEXT TRUNCATED: %d earlier messages removed because their summary failed (%s). Recent context preserved below.]",
		count, message.Clip(cause.Error(), 120))
	var s sections
	for _, m := range gone {
		if isSummary(m) {
			old, _ := parseSections(m.Content)
			s.union(old, secFilesRead, secFilesModified, secCommands)
		}
	}
	for _, f := range collectFacts(gone) {
		s.addFact(f)
	}
	for i := range secDecisions {
		if len(s[i]) > 0 {
			b.WriteString("\n\n## " + sectionNames[i] + "\n" + strings.Join(s[i], "\n"))
		}
	}
	return b.String()
}
