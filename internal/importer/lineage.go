package importer

import (
	"encoding/json"
	"iter"

	"github.com/chatcli/chatcli/internal/message"
)

// Parent returns the record entry of the conversation c continues (a
// resumed Claude Code session, see claude.go): the conversation whose Leaf
// is c.Continues, else the conversation c.Lineage; false when c continues
// none or that one is not imported yet.
func (w *Writer) Parent(c Conversation) (Entry, bool) {
	if c.Continues != "" {
		if e, ok := w.find(c.Tool, func(id string, e Entry) bool { return id != c.ID && e.Leaf == c.Continues }); ok {
			return e, true
		}
	}
	if c.Lineage != "" && c.Lineage != c.ID {
		if e, ok := w.entry(c.Tool, c.Lineage); ok {
			return e, true
		}
	}
	return Entry{}, false
}

// Waiting reports whether c continues a conversation that is not imported
// yet while c itself is not either: a run imports it after the other
// conversations it read (the one it continues may come later in the
// run), and Import makes it a session of its own when none ever does.
func (w *Writer) Waiting(c Conversation) bool {
	if c.Continues == "" && c.Lineage == "" {
		return false
	}
	if _, ok := w.entry(c.Tool, c.ID); ok {
		return false
	}
	_, ok := w.Parent(c)
	return !ok
}

// extend adds c, a resumed conversation seen for the first time, to the
// session of the conversation it continues (entry e): the messages of c
// that session does not hold yet, told by their SourceIDMember (a resumed
// file may repeat the earlier entries), appended after what it holds. The
// record then names that session for c too, so later runs append c's new
// messages there.
func (w *Writer) extend(c Conversation, e Entry) (Outcome, error) {
	out := Outcome{Session: e.Session}
	sess, err := w.load(e.Session)
	if err != nil {
		return out, err
	}
	held := map[string]bool{}
	for _, m := range sess.History {
		if id := sourceID(m); id != "" {
			held[id] = true
		}
	}
	if w.plan != nil {
		for id := range w.plan.sessions[e.Session] { // a dry run's additions
			held[id] = true
		}
	}
	var added []message.Message
	for _, m := range c.Messages {
		if id := sourceID(m); id == "" || !held[id] {
			added = append(added, m)
		}
	}
	out.Added = len(added)
	if len(added) == 0 {
		return out, w.note(c, e.Session)
	}
	return w.appendMessages(out, e.Session, sess, c, Conversation{Messages: added})
}

// sourceID is m's SourceIDMember, "" when it has none.
func sourceID(m message.Message) string {
	var id string
	if raw, ok := m.Extra[SourceIDMember]; ok {
		_ = json.Unmarshal(raw, &id)
	}
	return id
}

// Later orders the conversations a run set aside as Waiting: each once
// the one it continues is imported (the caller imports each yielded
// conversation before the next is checked), and last those whose earlier
// conversation never came, to become sessions of their own.
func (w *Writer) Later(waiting []Conversation) iter.Seq[Conversation] {
	return func(yield func(Conversation) bool) {
		for len(waiting) > 0 {
			var rest []Conversation
			for _, c := range waiting {
				if w.Waiting(c) {
					rest = append(rest, c)
				} else if !yield(c) {
					return
				}
			}
			if len(rest) == len(waiting) {
				for _, c := range rest {
					if !yield(c) {
						return
					}
				}
				return
			}
			waiting = rest
		}
	}
}
