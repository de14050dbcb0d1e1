package index

import (
	"slices"
	"time"

	"github.com/chatcli/chatcli/internal/search"
)

// Filter narrows a search; its zero value lets every message through.
type Filter struct {
	// Sessions keeps the messages of these sessions only (a deleted
	// session's journal answers to the last name it had).
	Sessions []string
	// Since keeps the messages recorded at or after it.
	Since time.Time
	// Roles keeps the messages of these roles only (user, assistant,
	// system, tool).
	Roles []string
}

// Hit is one message that matched, once for its whole fork family.
type Hit struct {
	// Session names the session holding the message; when Deleted, the
	// last session that named its journal (empty when none is known).
	Session string
	Deleted bool
	// Journal is the transcript id of the journal holding it ("" for a
	// session without a journal).
	Journal string
	// Members are the other sessions (forks) holding the same message at
	// the same position, sorted.
	Members  []string
	Position int // 1-based, in the session's transcript
	Role     string
	At       time.Time // when it was recorded; zero when unknown
	Score    float64   // BM25; higher is better
	Snippet  string    // one line around the first match, search.SnippetChars at most
}

// candidate is a scored document of one segment.
type candidate struct {
	seg   int
	doc   uint32
	score float64
	src   *source
	info  *docInfo
	at    int // index in topFamilies' heap
}

// Search ranks the messages matching q with BM25 (search.TermScore; a
// phrase counts as one term whose idf is the sum of its terms' and whose
// frequency is the number of times it occurs, as Lucene's PhraseQuery
// scores), leaves out those matching a clause of q.Not or outside f, keeps
// the best of each fork family, and returns the best limit (all when
// limit < 1), best first; ties go by session name, then position. The
// index answers as of the last Sync. Errors wrap ErrDamaged when a segment
// cannot be read (Sync then rebuilds it).
func (ix *Index) Search(q search.Query, f Filter, limit int) ([]Hit, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.man == nil {
		return nil, nil
	}
	slots := make([]*source, ix.man.NextSlot) // by slot; nil: not searched
	var n, tokens float64
	for _, s := range ix.man.Sources {
		if s.Slot < uint32(len(slots)) && f.allows(s) && !ix.dead[s.Slot] {
			slots[s.Slot] = s
		}
		n += float64(s.Docs)
		tokens += float64(s.Tokens)
	}
	if n == 0 {
		return nil, nil
	}
	avgdl := max(tokens/n, 1)
	segs := make([]*segment, 0, len(ix.man.Segments))
	for _, sm := range ix.man.Segments {
		segs = append(segs, ix.segs[sm.File])
	}
	idf := make([]float64, len(q.Any))
	for i, c := range q.Any {
		for _, t := range c {
			df := 0.0
			for _, s := range segs {
				if e, ok := s.lookup(t); ok {
					df += float64(e.df)
				}
			}
			if df == 0 {
				idf[i] = 0
				break
			}
			idf[i] += search.IDF(n, min(df, n))
		}
	}
	keep := &docFilter{slots: slots, f: f}
	top := newTopFamilies(limit, ix.seen)
	defer func() { ix.seen = top.seen[:0] }()
	for si, s := range segs {
		docs, err := s.documents()
		if err != nil {
			return nil, err
		}
		err = scoreSegment(s, docs, q, idf, avgdl, keep, top.floor, func(doc uint32, score float64) {
			if score < top.floor() {
				return // below every family kept: neither kept nor one of their members
			}
			c := candidate{seg: si, doc: doc, score: score, info: &docs[doc], src: slots[docs[doc].slot]}
			top.offer(&c)
		})
		if err != nil {
			return nil, err
		}
	}
	return ix.hits(top, q), nil
}

// allows reports whether f lets src's messages through.
func (f Filter) allows(s *source) bool {
	if len(f.Sessions) == 0 {
		return true
	}
	for _, name := range f.Sessions {
		if slices.Contains(s.Names, name) || s.Session == name || len(s.Names) == 0 && s.LastName == name {
			return true
		}
	}
	return false
}

// allowsDoc reports whether f lets d through, its source aside.
func (f Filter) allowsDoc(d *docInfo) bool {
	if len(f.Roles) > 0 && !slices.Contains(f.Roles, d.role) {
		return false
	}
	return f.Since.IsZero() || d.at >= f.Since.Unix()
}
