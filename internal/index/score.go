package index

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/search"
)

// scoreSegment scores the documents of s that match a clause of q.Any and
// none of q.Not and that keep lets through; idf[i] is clause i's. scores
// is scratch of at least len(docs) zeros, left zeroed. emit hears each
// document kept and its score; floor is the score below which emit drops
// one (it only rises). A query of one clause and no exclusion emits as it
// goes, and skips a document without counting a phrase's occurrences when
// the bound of its score (the clause's least term frequency) is below the
// floor.
func scoreSegment(s *segment, docs []docInfo, q search.Query, idf []float64, avgdl float64, scores []float64,
	keep *docFilter, floor func() float64, emit func(doc uint32, score float64)) error {
	if len(q.Any) == 1 && len(q.Not) == 0 {
		if idf[0] == 0 {
			return nil
		}
		return s.clause(q.Any[0], len(docs), func(doc uint32, tfMax int) bool {
			d := &docs[doc]
			return keep.keep(d) && search.TermScore(idf[0], float64(tfMax), float64(d.tokens), avgdl) >= floor()
		}, func(doc uint32, tf int) {
			emit(doc, search.TermScore(idf[0], float64(tf), float64(docs[doc].tokens), avgdl))
		})
	}
	var touched []uint32
	for i, c := range q.Any {
		if idf[i] == 0 {
			continue
		}
		err := s.clause(c, len(docs), nil, func(doc uint32, tf int) {
			if d := &docs[doc]; keep.keep(d) {
				if scores[doc] == 0 {
					touched = append(touched, doc)
				}
				scores[doc] += search.TermScore(idf[i], float64(tf), float64(d.tokens), avgdl)
			}
		})
		if err != nil {
			clearScores(scores, touched)
			return err
		}
	}
	for _, c := range q.Not {
		if len(touched) == 0 {
			break
		}
		if err := s.clause(c, len(docs), nil, func(doc uint32, _ int) { scores[doc] = 0 }); err != nil {
			clearScores(scores, touched)
			return err
		}
	}
	for _, doc := range touched {
		if scores[doc] > 0 { // BM25 scores are positive: 0 is excluded
			emit(doc, scores[doc])
		}
	}
	clearScores(scores, touched)
	return nil
}

// docFilter says which documents a search keeps: those of the sources
// searched (by slot; nil: not searched) that f lets through.
type docFilter struct {
	slots []*source
	f     Filter
}

// keep reports whether d is kept.
func (k *docFilter) keep(d *docInfo) bool {
	if d.slot >= uint32(len(k.slots)) || k.slots[d.slot] == nil {
		return false
	}
	return len(k.f.Roles) == 0 && k.f.Since.IsZero() || k.f.allowsDoc(d)
}

// clearScores zeroes the scores of touched.
func clearScores(scores []float64, touched []uint32) {
	for _, d := range touched {
		scores[d] = 0
	}
}

// clause calls fn with every document of s (of ndocs) holding clause c,
// and how many times it does: a term's frequency, or a phrase's number of
// occurrences at consecutive positions. When worth is set, a document
// holding every term of c is passed over when worth says no, given the
// least of their frequencies (which bounds the phrase's).
func (s *segment) clause(c search.Clause, ndocs int, worth func(doc uint32, tfMax int) bool, fn func(doc uint32, tf int)) error {
	cs := make([]postingCursor, len(c))
	for i, t := range c {
		e, ok := s.lookup(t)
		if !ok {
			return nil
		}
		data, err := s.postings(e)
		if err != nil {
			return err
		}
		cs[i].r = reader{b: data}
		if !cs[i].next() {
			return cs[i].damaged(s, ndocs)
		}
	}
	for {
		doc, aligned := cs[0].doc, true
		for i := range cs {
			for cs[i].doc < doc {
				if !cs[i].next() {
					return cs[i].damaged(s, ndocs)
				}
			}
			if cs[i].doc > doc {
				doc, aligned = cs[i].doc, false
			}
		}
		if !aligned {
			for cs[0].doc < doc {
				if !cs[0].next() {
					return cs[0].damaged(s, ndocs)
				}
			}
			continue
		}
		if int(doc) >= ndocs {
			return fmt.Errorf("%w: %s: postings name document %d of %d", ErrDamaged, s.name, doc, ndocs)
		}
		tfMax := cs[0].tf
		for i := range cs {
			tfMax = min(tfMax, cs[i].tf)
		}
		if worth == nil || worth(doc, tfMax) {
			if tf := phraseFreq(cs); tf > 0 {
				fn(doc, tf)
			}
		}
		if !cs[0].next() {
			return cs[0].damaged(s, ndocs)
		}
	}
}

// damaged is the error at the end of c's list: nil at its true end.
func (c *postingCursor) damaged(s *segment, ndocs int) error {
	switch {
	case c.r.err != nil:
		return fmt.Errorf("%w: %s: postings: %v", ErrDamaged, s.name, c.r.err)
	case int(c.doc) >= ndocs && c.n > 0:
		return fmt.Errorf("%w: %s: postings name document %d of %d", ErrDamaged, s.name, c.doc, ndocs)
	}
	return nil
}

// phraseFreq counts the positions p of cs[0]'s term in the current
// document such that cs[i]'s term is at p+i for every i.
func phraseFreq(cs []postingCursor) int {
	if len(cs) == 1 {
		return cs[0].tf
	}
	n := 0
	for _, p := range cs[0].positions() {
		ok := true
		for i := 1; i < len(cs) && ok; i++ {
			c := &cs[i]
			pos, want := c.positions(), p+uint32(i)
			for c.at < len(pos) && pos[c.at] < want {
				c.at++
			}
			ok = c.at < len(pos) && pos[c.at] == want
		}
		if ok {
			n++
		}
	}
	return n
}
