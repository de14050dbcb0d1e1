package index

import (
	"cmp"
	"slices"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

// name returns how src is shown: its first session, else the last one
// that named it (deleted), else "" (deleted, name unknown).
func (s *source) name() (string, bool) {
	switch {
	case s.Session != "":
		return s.Session, false
	case len(s.Names) > 0:
		return s.Names[0], false
	}
	return s.LastName, true
}

// rank orders candidates: higher score, then a live session before a
// deleted one, then session name, position.
func rank(a, b *candidate) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	na, da := a.src.name()
	nb, db := b.src.name()
	if da != db {
		if db {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return cmp.Compare(a.info.position, b.info.position)
}

// hits returns the candidates top kept, best first, with their members
// and snippets.
func (ix *Index) hits(t *topFamilies, q search.Query) []Hit {
	top, members := t.sorted(), t.members()
	snaps := map[string]*session.Session{}
	terms := q.Terms()
	out := make([]Hit, 0, len(top))
	for _, c := range top {
		name, deleted := c.src.name()
		h := Hit{Session: name, Deleted: deleted, Journal: c.src.Journal, Position: int(c.info.position),
			Role: c.info.role, Score: c.score}
		if c.info.at != 0 {
			h.At = time.Unix(c.info.at, 0)
		}
		ms := members[c.info.family]
		slices.Sort(ms)
		h.Members = slices.DeleteFunc(slices.Compact(ms), func(m string) bool { return m == name })
		if text, ok := ix.text(c, snaps); ok {
			h.Snippet = search.SnippetOf(text, terms, search.SnippetChars)
		}
		out = append(out, h)
	}
	return out
}

// text returns the text of c's message, read from its journal or session.
func (ix *Index) text(c *candidate, snaps map[string]*session.Session) (string, bool) {
	if c.src.Journal != "" {
		m, err := journal.MessageAt(journal.Path(ix.o.JournalDir, c.src.Journal), ix.key, c.info.before)
		if err != nil {
			return "", false
		}
		return search.MessageText(m), true
	}
	s, ok := snaps[c.src.Session]
	if !ok {
		s, _ = ix.o.Store.Load(c.src.Session)
		snaps[c.src.Session] = s
	}
	if s == nil || int(c.info.position) > len(s.History) {
		return "", false
	}
	return search.MessageText(&s.History[c.info.position-1]), true
}
