package importer

import (
	"slices"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// Compaction is a place where the tool compacted a conversation: from
// there on its model went on from History instead of what came before
// (Codex's compacted line with its replacement_history, see codex.go).
// An import keeps it as chatcli keeps its own compaction: the session's
// history becomes History followed by the later messages, and the
// journal holds the history it replaced, before a compact rewrite
// (journal.ReasonCompact), so `/rewind compact` gives it back.
type Compaction struct {
	// At is the index in Conversation.Messages of the compaction's
	// summary message. Messages keeps every message in order, the summary
	// among them, so the counts of the import record are the same with
	// and without compactions.
	At int
	// History is what the model went on from, in chatcli's shapes: the
	// messages the tool kept and the summary message (Messages[At],
	// meta.is_summary, meta.summary_of the number of messages it stands
	// for), in the tool's order.
	History []message.Message
}

// step is one history a session goes through while an import writes it:
// each is recorded in the journal in order, with its reason; the last is
// the session's history.
type step struct {
	history []message.Message
	reason  string
}

// steps returns the histories a session holding h goes through as the
// messages of c from index from on are added: h extended by the
// messages up to the first compaction at or after from, then that
// compaction's History, extended by the messages up to the next, and so
// on; the last step ends with the last message. Each history is repaired
// (message.Repair) and the fixes of every step are returned; h is not
// changed.
func steps(h []message.Message, c Conversation, from int) ([]step, []message.Fix) {
	var out []step
	var fixes []message.Fix
	live := slices.Clip(h) // appending copies: h and each step's history stay as they are
	repair := func(hs []message.Message, reason string) {
		r, f := message.Repair(hs)
		live, fixes = slices.Clip(r), append(fixes, f...)
		out = append(out, step{history: live, reason: reason})
	}
	for _, k := range c.Compactions {
		if k.At < from || k.At >= len(c.Messages) {
			continue
		}
		repair(append(live, c.Messages[from:k.At]...), journal.ReasonSync)
		repair(slices.Clone(k.History), journal.ReasonCompact)
		from = k.At + 1
	}
	repair(append(live, c.Messages[from:]...), journal.ReasonSync)
	return out, fixes
}

// tailFrom is the part of c from message index k on: its messages and the
// compactions among them, their indexes counted from k.
func tailFrom(c Conversation, k int) Conversation {
	part := Conversation{Messages: c.Messages[k:]}
	for _, cp := range c.Compactions {
		if cp.At >= k {
			part.Compactions = append(part.Compactions, Compaction{At: cp.At - k, History: cp.History})
		}
	}
	return part
}

// compacted appends the summary message of a compaction to what was
// built, with summary text (its opening note included) and time at, and
// records that the model went on from kept with that summary at index
// pos of it (0 ≤ pos ≤ len(kept)). The summary stands for the messages
// the history held before it, less the kept ones.
func (b *builder) compacted(text string, at time.Time, kept []message.Message, pos int) {
	if strings.TrimSpace(text) == "" {
		return
	}
	held := b.liveBase + len(b.msgs) - b.liveFrom
	b.add(message.Message{Role: message.RoleUser, Content: text,
		Meta: &message.Meta{IsSummary: true, SummaryOf: max(held-len(kept), 0)}}, at)
	at0 := len(b.msgs) - 1
	sum := b.msgs[at0]
	mt := *sum.Meta
	sum.Meta = &mt // the two copies share nothing
	h := make([]message.Message, 0, len(kept)+1)
	h = append(append(append(h, kept[:pos]...), sum), kept[pos:]...)
	b.compactions = append(b.compactions, Compaction{At: at0, History: h})
	b.liveBase, b.liveFrom = len(h), at0+1
}

// liveUserTexts is the set of the texts of the user messages in the
// history the model holds at this point of the reading: the last
// compaction's History and the messages after it.
func (b *builder) liveUserTexts() map[string]bool {
	held := map[string]bool{}
	if n := len(b.compactions); n > 0 {
		for _, m := range b.compactions[n-1].History {
			if m.Role == message.RoleUser {
				held[m.Content] = true
			}
		}
	}
	for _, m := range b.msgs[b.liveFrom:] {
		if m.Role == message.RoleUser {
			held[m.Content] = true
		}
	}
	return held
}
