package search

import (
	"strings"
	"sync"
)

// Doc is one searchable message.
type Doc struct {
	// Source names where the message lives: a session name or a journal id.
	Source string
	// Position is the 1-based position of the message in its source.
	Position int
	// Role is the message's role (user, assistant, system, tool).
	Role string
	// Text is what is searched and what snippets are cut from.
	Text string
}

// postingList holds the documents of one term, in increasing document id
// order, as pairs of unsigned varints: the id's distance from the previous
// id in the list (from 0 for the first), then the term frequency.
type postingList struct {
	data []byte
	last uint32 // id of the last document appended
	df   uint32 // number of documents in the list
}

// Index is an in-memory inverted index over Docs. It lives only in memory
// and is never written anywhere, so an encrypted store leaks no plaintext
// through it. An Index is safe for concurrent use.
type Index struct {
	mu       sync.RWMutex
	docs     []Doc
	lens     []uint32 // number of tokens of each document
	totalLen uint64   // sum of lens

	terms map[string]uint32 // folded term → term id
	lists []postingList     // by term id
	ids   []uint32          // scratch of merge: local term id → term id

	// Documents added but not indexed yet, and the size of their text.
	pending      []Doc
	pendingBytes int
}

// Added documents wait in Index.pending until their text reaches
// flushBytes or a search begins, so that one Add per message costs no more
// than one Add for all of them.
const flushBytes = 8 << 20

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{terms: map[string]uint32{}}
}

// Len returns the number of documents added.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.docs) + len(ix.pending)
}

// Add adds docs to the index. They are indexed in batches, in a single pass
// over their text spread over GOMAXPROCS goroutines, at the latest when
// the next search begins; calling Add once per document costs no more than
// once for all. Text that is not valid UTF-8 is stored and searched with
// U+FFFD in place of each invalid byte (message.ValidUTF8). The index keeps
// the text strings it is given, once, for snippets.
func (ix *Index) Add(docs ...Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.pending = append(ix.pending, docs...)
	for _, d := range docs {
		ix.pendingBytes += len(d.Text)
	}
	if ix.pendingBytes >= flushBytes {
		ix.flush()
	}
}

// flush indexes the pending documents; ix.mu is held.
func (ix *Index) flush() {
	build(ix.pending, ix.merge)
	clear(ix.pending)
	ix.pending, ix.pendingBytes = ix.pending[:0], 0
}

// merge adds the documents of a tokenized batch; ix.mu is held.
func (ix *Index) merge(b *batch) {
	ix.ids = ix.ids[:0]
	for _, t := range b.terms {
		ix.ids = append(ix.ids, ix.term(t))
	}
	at := 0
	for k, d := range b.docs {
		id := uint32(len(ix.docs))
		for _, p := range b.postings[at:b.ends[k]] {
			l := &ix.lists[ix.ids[p.term]]
			l.data = appendUvarint(appendUvarint(l.data, uint64(id-l.last)), uint64(p.tf))
			l.last = id
			l.df++
		}
		at = b.ends[k]
		ix.docs = append(ix.docs, d)
		ix.lens = append(ix.lens, b.lens[k])
		ix.totalLen += uint64(b.lens[k])
	}
}

// term returns the id of the folded term f, creating it when new.
func (ix *Index) term(f string) uint32 {
	if id, ok := ix.terms[f]; ok {
		return id
	}
	id := uint32(len(ix.lists))
	ix.terms[strings.Clone(f)] = id
	ix.lists = append(ix.lists, postingList{})
	return id
}

// appendUvarint appends x as an unsigned LEB128 varint.
func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}
