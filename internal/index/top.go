package index

import (
	"container/heap"
	"math"
	"slices"
)

// topFamilies keeps the best candidate of each fork family among the best
// limit families offered (every family when limit < 1), in a heap whose
// root is the worst kept: most candidates are turned away by one
// comparison with it, so the cost of a query matching n messages is about
// n comparisons plus limit·log(limit) heap moves.
type topFamilies struct {
	limit int
	h     []*candidate          // heap, worst first; candidate.at is the index
	by    map[uint64]*candidate // family → its kept candidate
	// seen lists the family and source of every candidate offered, for
	// the members of the families kept.
	seen []familySource
}

// familySource is one message's family and where it is.
type familySource struct {
	family uint64
	src    *source
}

// newTopFamilies returns an empty topFamilies keeping limit families,
// whose seen list reuses seen's storage.
func newTopFamilies(limit int, seen []familySource) *topFamilies {
	return &topFamilies{limit: limit, by: map[uint64]*candidate{}, seen: seen[:0]}
}

func (t *topFamilies) Len() int           { return len(t.h) }
func (t *topFamilies) Less(i, j int) bool { return rank(t.h[i], t.h[j]) > 0 }
func (t *topFamilies) Swap(i, j int) {
	t.h[i], t.h[j] = t.h[j], t.h[i]
	t.h[i].at, t.h[j].at = i, j
}
func (t *topFamilies) Push(x any) {
	c := x.(*candidate)
	c.at = len(t.h)
	t.h = append(t.h, c)
}
func (t *topFamilies) Pop() any {
	c := t.h[len(t.h)-1]
	t.h = t.h[:len(t.h)-1]
	return c
}

// floor returns the score a candidate must reach to be kept, or be a
// member of a family kept: the worst kept score once limit families are
// kept (a member of a family has its score: the same text at the same
// place), else no bound. Scores only rise, so a candidate below it is
// never needed.
func (t *topFamilies) floor() float64 {
	if t.limit > 0 && len(t.h) >= t.limit {
		return t.h[0].score
	}
	return math.Inf(-1)
}

// offer considers c, whose info and src are set; c is copied if kept.
func (t *topFamilies) offer(c *candidate) {
	t.seen = append(t.seen, familySource{c.info.family, c.src})
	full := t.limit > 0 && len(t.h) >= t.limit
	if full && rank(c, t.h[0]) >= 0 {
		return // not better than the worst kept, so than none of its family's
	}
	if kept, ok := t.by[c.info.family]; ok {
		if better(c, kept) {
			at := kept.at
			*kept = *c
			kept.at = at
			heap.Fix(t, at)
		}
		return
	}
	if !full {
		k := new(candidate)
		*k = *c
		t.by[c.info.family] = k
		heap.Push(t, k)
		return
	}
	worst := t.h[0]
	delete(t.by, worst.info.family)
	*worst = *c
	worst.at = 0
	t.by[worst.info.family] = worst
	heap.Fix(t, 0)
}

// sorted returns the kept candidates, best first.
func (t *topFamilies) sorted() []*candidate {
	out := slices.Clone(t.h)
	slices.SortFunc(out, rank)
	return out
}

// members returns the sessions holding a message of each kept family.
func (t *topFamilies) members() map[uint64][]string {
	out := map[uint64][]string{}
	for _, fs := range t.seen {
		if _, ok := t.by[fs.family]; ok {
			out[fs.family] = append(out[fs.family], fs.src.Names...)
		}
	}
	return out
}

// better reports whether c should stand for its family instead of kept:
// a message in a live session is shown under it rather than under a
// deleted one, whatever their scores; otherwise the better ranked wins.
func better(c, kept *candidate) bool {
	_, cd := c.src.name()
	_, kd := kept.src.name()
	if cd != kd {
		return kd
	}
	return rank(c, kept) < 0
}
