package search

import (
	"runtime"
	"slices"
	"sync"

	"github.com/chatcli/chatcli/internal/message"
)

// Batches are tokenized apart, in parallel, each with its own small term
// dictionary (fast: it stays in cache), then merged into the index in
// order, one lookup in the index's dictionary per distinct term of a batch.
const (
	batchBytes = 1 << 20
	batchDocs  = 1024
)

// batch is a run of documents, tokenized.
type batch struct {
	docs     []Doc     // with valid UTF-8 text
	terms    []string  // local term id → folded term
	lens     []uint32  // tokens of each document
	postings []posting // of every document, one per distinct term
	ends     []int     // end in postings of each document's postings
}

// posting is one local term of a document and its frequency there.
type posting struct{ term, tf uint32 }

// build tokenizes docs in batches and hands each batch to merge, in order.
// With more than one batch and more than one CPU, batches are tokenized
// concurrently, at most two per CPU ahead of merge.
func build(docs []Doc, merge func(*batch)) {
	var spans [][]Doc
	for start, size := 0, 0; start < len(docs); {
		end := start
		for size = 0; end < len(docs) && end-start < batchDocs && size < batchBytes; end++ {
			size += len(docs[end].Text)
		}
		spans = append(spans, docs[start:end])
		start = end
	}
	workers := runtime.GOMAXPROCS(0)
	if len(spans) < 2 || workers < 2 {
		for _, s := range spans {
			b := tokenize(s)
			merge(b)
			b.release()
		}
		return
	}
	results := make([]chan *batch, len(spans))
	for i := range results {
		results[i] = make(chan *batch, 1)
	}
	ahead := make(chan struct{}, 2*workers)
	go func() {
		for i, s := range spans {
			ahead <- struct{}{}
			go func() { results[i] <- tokenize(s) }()
		}
	}()
	for i := range spans {
		b := <-results[i]
		merge(b)
		b.release()
		<-ahead
	}
}

// scratch is the working space of tokenize, kept for reuse: Index.Add
// hands it large batches, so the maps reach a size worth keeping.
type scratch struct {
	raw     map[string]uint32 // token as written → local term id
	folded  map[string]uint32 // folded term → local term id
	tf      []uint32          // by local term id, for the current document
	touched []uint32          // local term ids of the current document
}

var scratches = sync.Pool{New: func() any {
	return &scratch{raw: make(map[string]uint32, 1<<14), folded: make(map[string]uint32, 1<<14)}
}}

// release returns sc to scratches, empty.
func (sc *scratch) release() {
	clear(sc.raw)
	clear(sc.folded)
	scratches.Put(sc)
}

var batches = sync.Pool{New: func() any { return new(batch) }}

// release returns b to batches, keeping its buffers but none of its text.
func (b *batch) release() {
	clear(b.docs)
	clear(b.terms)
	batches.Put(b)
}

// tokenize splits the texts of docs into folded terms and counts them. The
// batch comes from batches; release it once merged.
func tokenize(docs []Doc) *batch {
	b := batches.Get().(*batch)
	b.docs = append(b.docs[:0], docs...)
	b.terms, b.postings = b.terms[:0], b.postings[:0]
	b.lens, b.ends = slices.Grow(b.lens[:0], len(docs))[:len(docs)], slices.Grow(b.ends[:0], len(docs))[:len(docs)]
	sc := scratches.Get().(*scratch)
	defer sc.release()
	raw, folded, tf, touched := sc.raw, sc.folded, sc.tf[:0], sc.touched[:0]
	for k := range b.docs {
		d := &b.docs[k]
		d.Text = message.ValidUTF8(d.Text)
		text, n := d.Text, uint32(0)
		tokens(text, func(s, e int) bool {
			tok := text[s:e]
			t, ok := raw[tok]
			if !ok {
				f := fold(tok)
				if f == "" {
					return true
				}
				if t, ok = folded[f]; !ok {
					t = uint32(len(b.terms))
					folded[f] = t
					b.terms = append(b.terms, f)
					tf = append(tf, 0)
				}
				raw[tok] = t
			}
			n++
			if tf[t] == 0 {
				touched = append(touched, t)
			}
			tf[t]++
			return true
		})
		for _, t := range touched {
			b.postings = append(b.postings, posting{t, tf[t]})
			tf[t] = 0
		}
		touched = touched[:0]
		b.lens[k], b.ends[k] = n, len(b.postings)
	}
	sc.tf, sc.touched = tf, touched
	return b
}
