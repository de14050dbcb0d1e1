package index

import "fmt"

// postingCursor walks one term's postings in a segment (doc.go,
// "Postings"): doc is the current document's id and tf the term's
// frequency in it. Its positions are read past, not decoded: positions()
// decodes them, for the documents a phrase needs them of.
type postingCursor struct {
	r    reader
	doc  uint32
	tf   int
	raw  []byte   // the current document's positions, as stored
	pos  []uint32 // positions() of the current document (reused between calls)
	read bool     // pos holds the current document's positions
	n    int      // postings read
	at   int      // phraseFreq's place in pos
}

// next moves to the following posting and reports whether there was one;
// r.err tells a damaged list from its end.
func (c *postingCursor) next() bool {
	if len(c.r.b) == 0 || c.r.err != nil {
		return false
	}
	delta := c.r.uvarint()
	if c.n > 0 && delta == 0 {
		c.r.err = fmt.Errorf("document %d listed twice", c.doc)
		return false
	}
	c.doc += uint32(delta)
	tf := c.r.uvarint()
	if tf == 0 || tf > uint64(len(c.r.b)) {
		c.r.err = fmt.Errorf("document %d: term frequency %d", c.doc, tf)
		return false
	}
	c.tf, c.read, c.at = int(tf), false, 0
	b, i := c.r.b, 0
	for left := tf; left > 0; i++ { // past tf uvarints: each ends at a byte below 0x80
		if i == len(b) {
			c.r.err = fmt.Errorf("document %d: positions cut short", c.doc)
			return false
		}
		if b[i] < 0x80 {
			left--
		}
	}
	c.raw, c.r.b = b[:i], b[i:]
	c.n++
	return true
}

// positions returns the positions of the term in the current document,
// in increasing order.
func (c *postingCursor) positions() []uint32 {
	if c.read {
		return c.pos
	}
	c.pos, c.read = c.pos[:0], true
	r, p := reader{b: c.raw}, uint32(0)
	for range c.tf {
		p += uint32(r.uvarint())
		c.pos = append(c.pos, p)
	}
	return c.pos
}

// nextEntry decodes the dictionary entry at r whose predecessor's term
// was prev, and returns its term (in prev's storage) and location.
func nextEntry(r *reader, prev []byte) ([]byte, dictEntry, error) {
	shared := r.uvarint()
	if shared > uint64(len(prev)) {
		return nil, dictEntry{}, fmt.Errorf("entry shares %d bytes of a %d-byte term", shared, len(prev))
	}
	cur := append(prev[:shared], r.bytes(r.uvarint())...)
	e := dictEntry{r.uvarint(), r.uvarint(), r.uvarint(), r.uvarint()}
	return cur, e, r.err
}

// each calls fn with every term of the segment and where its postings
// are, in term order, until fn returns an error, which each returns.
func (s *segment) each(fn func(term string, e dictEntry) error) error {
	r := reader{b: s.dict}
	var cur []byte
	for i := 0; i < s.nTerms; i++ {
		var e dictEntry
		var err error
		if cur, e, err = nextEntry(&r, cur); err != nil {
			return fmt.Errorf("%w: %s: dictionary entry %d: %v", ErrDamaged, s.name, i, err)
		}
		if err := fn(string(cur), e); err != nil {
			return err
		}
	}
	return nil
}
