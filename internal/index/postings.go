package index

import (
	"fmt"
	"math"

	"github.com/chatcli/chatcli/internal/search"
)

// blockDocs is the number of documents of a block of a posting list
// (doc.go, "Postings"): a list of more documents has a skip table, one
// entry per block.
const blockDocs = 128

// skipEntry is what a posting list's skip table says of one block: the
// ids of the last documents of the block before it and of its own, where
// its two parts are in the list, and its impacts: pairs of a term
// frequency and a document length such that every document of the block
// has a frequency at most one's at a length at least its, which bound the
// term's BM25 score in every document of the block. A list without a
// skip table has no impacts: nothing bounds its one block.
type skipEntry struct {
	prevLast, last        uint32
	docsAt, posAt, posEnd int
	impacts               [maxImpacts]impact
	nImpacts              int
}

// bound returns the highest BM25 score (search.TermScore) the term may
// have in a document of the block, for a term of idf in documents of
// avgdl terms on average; +Inf for a block without impacts.
func (e *skipEntry) bound(idf, avgdl float64) float64 {
	if e.nImpacts == 0 {
		return math.Inf(1)
	}
	b := 0.0
	for _, m := range e.impacts[:e.nImpacts] {
		b = max(b, search.TermScore(idf, float64(m.tf), float64(m.len), avgdl))
	}
	return b
}

// postingCursor walks one term's postings in a segment (doc.go,
// "Postings") a block at a time: it passes over whole blocks by their
// skip entries (skipBlock, advance) without decoding them, reads a
// block's ids and frequencies only when it stops in it, and decodes a
// document's positions only when positions() asks for them. err is set
// when the list turns out damaged; the cursor then stands past its end.
type postingCursor struct {
	list    []byte
	df      int
	blocks  int       // blocks in the list
	skip    reader    // the skip table, from the entry after cur's
	cur     skipEntry // the current block's
	block   int       // the current block, from 0; blocks once past the end
	decoded bool      // docs, tfs and n hold the current block
	docs    [blockDocs]uint32
	tfs     [blockDocs]uint32
	n, i    int // documents in the current block; the current one
	// posR reads the current block's positions from those of its document
	// posDoc on; pos holds the positions of document posFor (-1: none).
	posR   reader
	posDoc int
	posFor int
	pos    []uint32
	at     int // phraseFreq's place in pos
	err    error
}

// open starts c at the first document of the posting list data of a term
// held by df documents.
func (c *postingCursor) open(data []byte, df uint64) {
	*c = postingCursor{list: data, df: int(df), pos: c.pos[:0], posFor: -1}
	if df == 0 || df > uint64(len(data)) {
		c.fail(fmt.Errorf("%d documents in a list of %d bytes", df, len(data)))
		return
	}
	if c.df <= blockDocs { // one block and no skip table
		c.blocks = 1
		c.cur = skipEntry{posAt: -1, posEnd: len(data)}
		c.decode()
		return
	}
	r := reader{b: data}
	c.blocks = int(r.uvarint())
	table := r.uvarint()
	if want := (c.df + blockDocs - 1) / blockDocs; c.blocks != want || r.err != nil || table > uint64(len(r.b)) {
		c.fail(fmt.Errorf("skip table of %d blocks for %d documents", c.blocks, c.df))
		return
	}
	c.skip = reader{b: r.b[:table]}
	c.cur.posEnd = len(data) - len(r.b) + int(table) // the blocks follow the table
	c.block = -1
	c.nextBlock()
}

// fail marks c damaged by err and puts it past its end.
func (c *postingCursor) fail(err error) {
	if c.err == nil {
		c.err = err
	}
	c.block, c.decoded = c.blocks, false
}

// done reports whether c is past its last document.
func (c *postingCursor) done() bool { return c.block >= c.blocks }

// nextBlock moves to the block after the current one, reading its skip
// entry only.
func (c *postingCursor) nextBlock() {
	c.block++
	c.decoded, c.posFor = false, -1
	if c.block >= c.blocks {
		return
	}
	if c.skip.b == nil {
		c.fail(fmt.Errorf("block %d of a one-block list", c.block))
		return
	}
	prev := c.cur
	d := c.skip.uvarint()
	docsLen, posLen, n := c.skip.uvarint(), c.skip.uvarint(), c.skip.uvarint()
	c.cur = skipEntry{prevLast: prev.last, last: prev.last + uint32(d), docsAt: prev.posEnd, nImpacts: int(n)}
	if c.block == 0 {
		c.cur.last = uint32(d) // the first entry's id is the id itself
	}
	c.cur.posAt = c.cur.docsAt + int(docsLen)
	c.cur.posEnd = c.cur.posAt + int(posLen)
	bad := c.skip.err != nil || c.block > 0 && d == 0 || docsLen == 0 || c.cur.posEnd > len(c.list) || n == 0 || n > maxImpacts
	var m impact
	for i := 0; i < c.cur.nImpacts && !bad; i++ {
		dtf, dlen := c.skip.uvarint(), c.skip.uvarint()
		bad = i > 0 && (dtf == 0 || dlen == 0) || i == 0 && dtf == 0 || dtf > math.MaxUint32 || dlen > math.MaxUint32
		m = impact{m.tf + uint32(dtf), m.len + uint32(dlen)}
		c.cur.impacts[i] = m
	}
	if bad || c.skip.err != nil {
		c.fail(fmt.Errorf("skip entry %d of %d does not fit the list", c.block, c.blocks))
	}
}

// decode reads the ids and frequencies of the current block and stops
// at its first document.
func (c *postingCursor) decode() {
	n := blockDocs
	if c.block == c.blocks-1 {
		n = c.df - blockDocs*(c.blocks-1)
	}
	end := c.cur.posAt
	if end < 0 { // a one-block list: its positions follow its n documents
		end = len(c.list)
	}
	r, prev := reader{b: c.list[c.cur.docsAt:end]}, c.cur.prevLast
	for k := range n {
		d := r.uvarint()
		first := k == 0 && c.block == 0
		if d == 0 && !first {
			c.fail(fmt.Errorf("document %d listed twice", prev))
			return
		}
		if !first {
			d += uint64(prev)
		}
		tf := r.uvarint()
		if tf == 0 || tf > uint64(len(c.list)) || d > math.MaxUint32 || r.err != nil {
			c.fail(fmt.Errorf("document %d: term frequency %d", d, tf))
			return
		}
		c.docs[k], c.tfs[k], prev = uint32(d), uint32(tf), uint32(d)
	}
	if c.cur.posAt < 0 {
		c.cur.posAt, c.cur.last = end-len(r.b), prev
	} else if len(r.b) != 0 || prev != c.cur.last {
		c.fail(fmt.Errorf("block %d does not end where its skip entry says", c.block))
		return
	}
	c.n, c.i, c.decoded = n, 0, true
	c.posR, c.posDoc, c.posFor = reader{b: c.list[c.cur.posAt:c.cur.posEnd]}, 0, -1
}

// ok decodes the current block if it is not and reports whether c stands
// at a document (doc, tf).
func (c *postingCursor) ok() bool {
	if !c.done() && !c.decoded {
		c.decode()
	}
	return !c.done()
}

// doc is the current document's id; tf the term's frequency in it. Both
// need ok() first.
func (c *postingCursor) doc() uint32 { return c.docs[c.i] }
func (c *postingCursor) tf() int     { return int(c.tfs[c.i]) }

// next moves to the following document and reports whether there is one.
func (c *postingCursor) next() bool {
	if !c.ok() {
		return false
	}
	if c.i++; c.i == c.n {
		c.nextBlock()
	}
	c.at = 0
	return c.ok()
}

// skipBlock moves past the current block without decoding it.
func (c *postingCursor) skipBlock() {
	if !c.done() {
		c.nextBlock()
	}
}

// seek moves to the first block that may hold target or a later document
// (its last document is target or later) without decoding a block.
func (c *postingCursor) seek(target uint32) {
	for !c.done() && c.cur.last < target && c.skip.b != nil {
		c.nextBlock()
	}
}

// advance moves to the first document at or after target and reports
// whether there is one.
func (c *postingCursor) advance(target uint32) bool {
	if c.decoded && c.docs[c.i] >= target {
		return true
	}
	c.seek(target)
	if !c.ok() {
		return false
	}
	for c.docs[c.i] < target {
		if c.i++; c.i == c.n { // a one-block list, or cur.last was below target
			c.nextBlock()
			return c.ok() && c.advance(target)
		}
	}
	c.at = 0
	return true
}

// positions returns the positions of the term in the current document,
// in increasing order: those of the documents before it in the block are
// passed over, not decoded.
func (c *postingCursor) positions() []uint32 {
	if c.posFor == c.i {
		return c.pos
	}
	for ; c.posDoc < c.i; c.posDoc++ { // past tf uvarints: each ends at a byte below 0x80
		b, k := c.posR.b, 0
		for left := c.tfs[c.posDoc]; left > 0; k++ {
			if k == len(b) {
				c.fail(fmt.Errorf("document %d: positions cut short", c.docs[c.posDoc]))
				return nil
			}
			if b[k] < 0x80 {
				left--
			}
		}
		c.posR.b = b[k:]
	}
	c.pos, c.posFor = c.pos[:0], c.i
	p := uint32(0)
	for range c.tfs[c.i] {
		p += uint32(c.posR.uvarint())
		c.pos = append(c.pos, p)
	}
	c.posDoc++
	if c.posR.err != nil {
		c.fail(fmt.Errorf("document %d: positions: %v", c.docs[c.i], c.posR.err))
		return nil
	}
	return c.pos
}

// finish puts c past its end: its clause can match no more.
func (c *postingCursor) finish() { c.block, c.decoded = c.blocks, false }
