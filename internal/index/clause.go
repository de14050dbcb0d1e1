package index

import (
	"math"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/search"
)

// clauseCursor walks the documents of a segment matching one clause of a
// query: a term, or a phrase, whose terms must all be in a document (a
// conjunction) at consecutive positions. Its lead, the term of fewest
// documents, drives the walk; the others are advanced to the lead's
// documents, passing over their blocks by the skip tables. Documents
// below min are passed over (a stretch bounded below the floor).
type clauseCursor struct {
	terms   []postingCursor // in the clause's order
	leadAt  int
	idf     float64
	min     uint32
	matched bool // every term stands at the lead's document, at least min
}

// openClause returns a cursor over the documents of s matching c, whose
// idf is idf, or nil when s lacks a term of c.
func (s *segment) openClause(c search.Clause, idf float64) (*clauseCursor, error) {
	cc := &clauseCursor{terms: make([]postingCursor, len(c)), idf: idf}
	var df uint64
	for i, t := range c {
		e, ok := s.lookup(t)
		if !ok {
			return nil, nil
		}
		data, err := s.postings(e)
		if err != nil {
			return nil, err
		}
		if cc.terms[i].open(data, e.df); cc.terms[i].err != nil {
			return nil, i18n.Errorf("%w: %s: postings of %q: %v", ErrDamaged, s.name, t, cc.terms[i].err)
		}
		if i == 0 || e.df < df {
			cc.leadAt, df = i, e.df
		}
	}
	return cc, nil
}

// lead returns the cursor of the clause's lead term.
func (c *clauseCursor) lead() *postingCursor { return &c.terms[c.leadAt] }

// from returns the lowest id the clause's next match may have.
func (c *clauseCursor) from() uint32 {
	l := c.lead()
	switch {
	case l.decoded:
		return max(l.doc(), c.min)
	case l.block > 0:
		return max(l.cur.prevLast+1, c.min)
	}
	return c.min
}

// bound returns the highest score the clause may give a document of its
// lead's current block, by the block's impacts (a phrase occurs no more
// often than its lead term).
func (c *clauseCursor) bound(avgdl float64) float64 {
	return c.lead().cur.bound(c.idf, avgdl)
}

// pass moves the clause past document end, without decoding its lead's
// block when that block ends at end.
func (c *clauseCursor) pass(end uint32) {
	l := c.lead()
	if l.cur.last == end {
		l.skipBlock()
		c.matched = false
		return
	}
	c.min = end + 1
	if c.matched && l.doc() < c.min {
		c.matched = false
	}
}

// match moves the clause to its first match at or after target (and
// min) and reports whether there is one; the lead's doc() is then its id.
func (c *clauseCursor) match(target uint32) bool {
	t, l := max(target, c.min), c.lead()
	if c.matched && l.doc() >= t {
		return true
	}
	c.matched = false
	for {
		if !l.advance(t) {
			return false
		}
		doc, aligned := l.doc(), true
		for i := range c.terms {
			o := &c.terms[i]
			if i == c.leadAt {
				continue
			}
			if !o.advance(doc) {
				l.finish()
				return false
			}
			if o.doc() > doc {
				t, aligned = o.doc(), false
				break
			}
		}
		if aligned {
			c.matched = true
			return true
		}
	}
}

// next moves the clause past its current match.
func (c *clauseCursor) next() {
	c.matched = false
	c.lead().next()
}

// minTF returns the least frequency of the clause's terms in the matched
// document, which bounds the phrase's.
func (c *clauseCursor) minTF() int {
	n := math.MaxInt
	for i := range c.terms {
		n = min(n, c.terms[i].tf())
	}
	return n
}

// freq returns how many times the clause occurs in the matched document:
// its term's frequency, or the phrase's occurrences at consecutive
// positions.
func (c *clauseCursor) freq() int {
	if len(c.terms) == 1 {
		return c.terms[0].tf()
	}
	return phraseFreq(c.terms)
}

// damaged returns the error of a cursor of the clause that found its
// list damaged, or nil.
func (c *clauseCursor) damaged(s *segment) error {
	for i := range c.terms {
		if err := c.terms[i].err; err != nil {
			return i18n.Errorf("%w: %s: postings: %v", ErrDamaged, s.name, err)
		}
	}
	return nil
}

// phraseFreq counts the positions p of cs[0]'s term in the current
// document such that cs[i]'s term is at p+i for every i.
func phraseFreq(cs []postingCursor) int {
	for i := range cs {
		cs[i].at = 0
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
