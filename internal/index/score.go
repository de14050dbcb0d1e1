package index

import (
	"fmt"
	"math"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/search"
)

// scoreSegment scores the documents of s that match a clause of q.Any and
// none of q.Not and that keep lets through; idf[i] is clause i's, and a
// document's score is the sum over the clauses it matches, in clause
// order. emit hears each document kept and its score; floor is the score
// below which emit drops one (it only rises). The clauses are walked
// together, a document at a time (a disjunction, as BM25 search engines
// walk theirs); a stretch of documents ending at the end of a block of
// each clause's list is passed over without being decoded when the bounds
// of the blocks (their skip entries: highest frequency, fewest terms; the
// block-max WAND bound) cannot reach the floor, and a document is checked
// against q.Not only once its score would be kept.
func scoreSegment(s *segment, docs []docInfo, q search.Query, idf []float64, avgdl float64,
	keep *docFilter, floor func() float64, emit func(doc uint32, score float64)) error {
	var any, not []*clauseCursor
	for i, c := range q.Any {
		if idf[i] == 0 {
			continue
		}
		cc, err := s.openClause(c, idf[i])
		if err != nil {
			return err
		}
		if cc != nil {
			any = append(any, cc)
		}
	}
	for _, c := range q.Not {
		cc, err := s.openClause(c, 0)
		if err != nil {
			return err
		}
		if cc != nil {
			not = append(not, cc)
		}
	}
	w := walk{any: any, not: not, docs: docs, avgdl: avgdl, keep: keep, floor: floor, emit: emit}
	err := w.run()
	for _, c := range append(any, not...) {
		if derr := c.damaged(s); derr != nil {
			return derr
		}
	}
	if err != nil {
		return i18n.Errorf("%w: %s: %v", ErrDamaged, s.name, err)
	}
	return nil
}

// walk is one segment's disjunction of clauses (scoreSegment).
type walk struct {
	any, not []*clauseCursor
	in       []*clauseCursor // the clauses of the stretch scored
	docs     []docInfo
	avgdl    float64
	keep     *docFilter
	floor    func() float64
	emit     func(doc uint32, score float64)
}

// run walks the clauses a stretch at a time: up to the first end of a
// block of their leads.
func (w *walk) run() error {
	for {
		end, live := uint32(math.MaxUint32), false
		for _, c := range w.any {
			if !c.lead().done() {
				end, live = min(end, c.lead().cur.last), true
			}
		}
		if !live {
			return nil
		}
		bound := 0.0
		for _, c := range w.any {
			if !c.lead().done() && c.from() <= end {
				bound += c.bound(w.avgdl)
			}
		}
		if bound < w.floor() {
			for _, c := range w.any {
				if !c.lead().done() && c.from() <= end {
					c.pass(end)
				}
			}
			continue
		}
		if err := w.stretch(end); err != nil {
			return err
		}
	}
}

// stretch scores the documents up to end, and leaves every clause past
// end.
func (w *walk) stretch(end uint32) error {
	in := w.in[:0]
	for _, c := range w.any {
		if !c.lead().done() && c.from() <= end {
			in = append(in, c)
		}
	}
	w.in = in
	for {
		doc := uint32(math.MaxUint32)
		for _, c := range in {
			if c.match(0) {
				doc = min(doc, c.lead().doc())
			}
		}
		if doc == math.MaxUint32 || doc > end {
			return nil
		}
		if int(doc) >= len(w.docs) {
			return fmt.Errorf("postings name document %d of %d", doc, len(w.docs))
		}
		if d := &w.docs[doc]; w.keep.keep(d) {
			if score := w.score(doc, d); score > 0 && score >= w.floor() && !w.excluded(doc) { // BM25 scores are positive
				w.emit(doc, score)
			}
		}
		for _, c := range in {
			if c.match(0) && c.lead().doc() == doc {
				c.next()
			}
		}
	}
}

// score returns the score of doc, d, for the clauses matching it (0 when
// it cannot reach the floor): a phrase's occurrences are counted only
// when the bound of the document's score (each phrase's least term
// frequency) reaches the floor.
func (w *walk) score(doc uint32, d *docInfo) float64 {
	bound, phrases := 0.0, false
	for _, c := range w.any {
		if c.matched && c.lead().doc() == doc {
			bound += search.TermScore(c.idf, float64(c.minTF()), float64(d.tokens), w.avgdl)
			phrases = phrases || len(c.terms) > 1
		}
	}
	if bound < w.floor() {
		return 0
	}
	if !phrases {
		return bound // the same sum, in the same order
	}
	score := 0.0
	for _, c := range w.any {
		if c.matched && c.lead().doc() == doc {
			if tf := c.freq(); tf > 0 {
				score += search.TermScore(c.idf, float64(tf), float64(d.tokens), w.avgdl)
			}
		}
	}
	return score
}

// excluded reports whether a clause of q.Not matches doc.
func (w *walk) excluded(doc uint32) bool {
	for _, c := range w.not {
		if c.match(doc) && c.lead().doc() == doc && c.freq() > 0 {
			return true
		}
	}
	return false
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
