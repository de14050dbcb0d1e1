package index

import "fmt"

// postingCursor walks one term's postings in a segment (doc.go,
// "Postings"): doc is the current document's id, pos the term's
// positions in it (reused between calls).
type postingCursor struct {
	r   reader
	doc uint32
	pos []uint32
	n   int // postings read
	at  int // phraseFreq's place in pos
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
	c.pos, c.at = c.pos[:0], 0
	p := uint32(0)
	for range tf {
		p += uint32(c.r.uvarint())
		c.pos = append(c.pos, p)
	}
	c.n++
	return c.r.err == nil
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
