package search

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrEmptyQuery is wrapped by the error Search returns for a query without
// a single letter or digit; match it with errors.Is.
var ErrEmptyQuery = errors.New("search: empty query")

// BM25 parameters (Robertson & Zaragoza 2009, §3.3).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// SnippetChars is the length, in characters, of Hit.Snippet.
const SnippetChars = 80

// Hit is one document that matched a query.
type Hit struct {
	Doc   Doc
	Score float64 // BM25 score; higher is better
	// Snippet is the one-line excerpt of Doc.Text around its first match,
	// at most SnippetChars characters (see Snippet).
	Snippet string
}

// Search ranks the documents that contain at least one term of query with
// Okapi BM25 (S. Robertson and H. Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", Foundations and Trends in Information
// Retrieval 3(4), 2009), k1 = 1.2 and b = 0.75:
//
//	score(D, Q) = Σ_{t ∈ Q} idf(t) · tf(t,D)·(k1+1) / (tf(t,D) + k1·(1 − b + b·|D|/avgdl))
//	idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
//
// where |D| counts tokens and each distinct query term counts once. The idf
// is the Robertson–Spärck Jones weight plus one inside the logarithm (as in
// Lucene), so a term found in most documents still scores a little rather
// than negatively.
//
// It returns at most limit hits (every hit when limit < 1), best first;
// equal scores are ordered by Doc.Source, then Doc.Position, then order of
// addition. A query with no letter or digit returns an error wrapping
// ErrEmptyQuery; a query whose terms the index does not hold returns no
// hits and no error. Documents added and not yet indexed are indexed
// first; then only the posting lists of the query's terms are read.
func (ix *Index) Search(query string, limit int) ([]Hit, error) {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil, fmt.Errorf("%w: %q has no letter or digit", ErrEmptyQuery, query)
	}
	ix.mu.RLock()
	for len(ix.pending) > 0 { // index what was added first
		ix.mu.RUnlock()
		ix.mu.Lock()
		if len(ix.pending) > 0 {
			ix.flush()
		}
		ix.mu.Unlock()
		ix.mu.RLock()
	}
	defer ix.mu.RUnlock()
	n := float64(len(ix.docs))
	var cs []cursor
	for _, t := range terms {
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		l := ix.lists[id]
		df := float64(l.df)
		c := cursor{data: l.data, idf: IDF(n, df)}
		c.next()
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	avgdl := float64(ix.totalLen) / n
	if avgdl == 0 {
		avgdl = 1
	}
	top := topK{ix: ix, limit: limit}
	for {
		doc, found := uint32(math.MaxUint32), false
		for i := range cs {
			if !cs[i].done && cs[i].doc <= doc {
				doc, found = cs[i].doc, true
			}
		}
		if !found {
			break
		}
		score := 0.0
		for i := range cs {
			if c := &cs[i]; !c.done && c.doc == doc {
				score += TermScore(c.idf, float64(c.tf), float64(ix.lens[doc]), avgdl)
				c.next()
			}
		}
		top.offer(ranked{doc, score})
	}
	hits := make([]Hit, 0, len(top.h))
	for _, r := range top.sorted() {
		d := ix.docs[r.id]
		hits = append(hits, Hit{Doc: d, Score: r.score, Snippet: snippet(d.Text, terms, SnippetChars)})
	}
	return hits, nil
}

// cursor walks one posting list.
type cursor struct {
	data    []byte // rest of the list
	doc, tf uint32 // current posting
	idf     float64
	done    bool
}

// next moves to the following posting, or sets done.
func (c *cursor) next() {
	if len(c.data) == 0 {
		c.done = true
		return
	}
	var delta, tf uint64
	delta, c.data = uvarint(c.data)
	tf, c.data = uvarint(c.data)
	c.doc += uint32(delta)
	c.tf = uint32(tf)
}

// uvarint decodes the varint at the start of b, written by appendUvarint,
// and returns it with the rest of b.
func uvarint(b []byte) (uint64, []byte) {
	if b[0] < 0x80 {
		return uint64(b[0]), b[1:]
	}
	var x uint64
	for i, s := 0, uint(0); ; i, s = i+1, s+7 {
		if b[i] < 0x80 {
			return x | uint64(b[i])<<s, b[i+1:]
		}
		x |= uint64(b[i]&0x7f) << s
	}
}

// ranked is a scored document id.
type ranked struct {
	id    uint32
	score float64
}

// topK keeps the best limit documents offered (all when limit < 1) in a
// heap whose root is the worst of them.
type topK struct {
	ix    *Index
	limit int
	h     []ranked
}

// better reports whether a ranks before b.
func (t *topK) better(a, b ranked) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	da, db := &t.ix.docs[a.id], &t.ix.docs[b.id]
	if da.Source != db.Source {
		return da.Source < db.Source
	}
	if da.Position != db.Position {
		return da.Position < db.Position
	}
	return a.id < b.id
}

// offer keeps r if it is among the best limit documents offered so far.
func (t *topK) offer(r ranked) {
	switch {
	case t.limit < 1:
		t.h = append(t.h, r)
	case len(t.h) < t.limit:
		t.h = append(t.h, r)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !t.better(t.h[p], t.h[i]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
	case t.better(r, t.h[0]):
		t.h[0] = r
		for i := 0; ; {
			w, l, rt := i, 2*i+1, 2*i+2
			if l < len(t.h) && t.better(t.h[w], t.h[l]) {
				w = l
			}
			if rt < len(t.h) && t.better(t.h[w], t.h[rt]) {
				w = rt
			}
			if w == i {
				break
			}
			t.h[w], t.h[i] = t.h[i], t.h[w]
			i = w
		}
	}
}

// sorted returns the kept documents, best first.
func (t *topK) sorted() []ranked {
	slices.SortFunc(t.h, func(a, b ranked) int {
		switch {
		case a.id == b.id:
			return 0
		case t.better(a, b):
			return -1
		}
		return 1
	})
	return t.h
}
