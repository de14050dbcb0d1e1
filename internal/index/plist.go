package index

import (
	"encoding/binary"
	"slices"
)

// plist is the posting list of one term while a segment is being built
// (doc.go, "Postings"): its finished blocks, as a segment holds them,
// then the postings of the open block as they came (per document its id
// minus the one before, its frequency, its positions), which closing the
// block splits into its two parts.
type plist struct {
	data      []byte // finished blocks, then the open block's postings from open on
	skips     []byte // the skip entries of the finished blocks
	open      int
	last      uint32   // id of the last document appended
	blockLast uint32   // id of the last document of the last finished block
	df        uint32   // documents appended
	cur       []uint32 // positions of the document being added (builder.add)
}

// appendDoc appends the posting of document id, which holds the term at
// the increasing positions pos; docs are the segment's documents so far
// (id among them), whose lengths the skip entries need.
func (p *plist) appendDoc(id uint32, pos []uint32, docs []docInfo) {
	if p.df > 0 && p.df%blockDocs == 0 {
		tail := slices.Clone(p.data[p.open:])
		p.skips, p.data = appendBlock(p.skips, p.data[:p.open], tail, p.blockLast, docs)
		p.open, p.blockLast = len(p.data), p.last
	}
	p.data = binary.AppendUvarint(p.data, uint64(id-p.last)) // the first id is the id itself
	p.data = binary.AppendUvarint(p.data, uint64(len(pos)))
	prev := uint32(0)
	for _, x := range pos {
		p.data = binary.AppendUvarint(p.data, uint64(x-prev))
		prev = x
	}
	p.last = id
	p.df++
}

// appendTo appends the list as a segment holds it to dst: a list of up
// to blockDocs documents is its one block; a longer one starts with its
// number of blocks and its skip table.
func (p *plist) appendTo(dst []byte, docs []docInfo) []byte {
	if p.df <= blockDocs {
		_, dst = appendBlock(nil, dst, p.data, 0, nil)
		return dst
	}
	last, block := appendBlock(nil, nil, p.data[p.open:], p.blockLast, docs)
	dst = binary.AppendUvarint(dst, uint64((p.df+blockDocs-1)/blockDocs))
	dst = binary.AppendUvarint(dst, uint64(len(p.skips)+len(last)))
	dst = append(append(dst, p.skips...), last...)
	return append(append(dst, p.data[:p.open]...), block...)
}

// maxImpacts bounds the (frequency, length) pairs of a skip entry.
const maxImpacts = 4

// impact is a term frequency and a document length of a block: no
// document of the block has a higher frequency at a length as short
// (doc.go, "Postings").
type impact struct{ tf, len uint32 }

// appendBlock appends to blocks the block whose postings as they came are
// tail, its documents then its positions, and its skip entry to skips;
// the block follows the document prevLast (0 for a list's first). Without
// docs (a list of one block, which has no skip table) skips is left as
// it is.
func appendBlock(skips, blocks, tail []byte, prevLast uint32, docs []docInfo) ([]byte, []byte) {
	var frontier [2 * maxImpacts]impact
	imps := frontier[:0]
	start := len(blocks)
	id := prevLast
	for r := (reader{b: tail}); len(r.b) > 0; { // the documents part
		at := len(tail) - len(r.b)
		id += uint32(r.uvarint())
		tf := r.uvarint()
		blocks = append(blocks, tail[at:len(tail)-len(r.b)]...)
		r.b = pastUvarints(r.b, tf)
		if docs != nil {
			imps = addImpact(imps, impact{uint32(tf), docs[id].tokens})
		}
	}
	docsLen := len(blocks) - start
	for r := (reader{b: tail}); len(r.b) > 0; { // the positions part
		r.uvarint()
		tf := r.uvarint()
		rest := pastUvarints(r.b, tf)
		blocks = append(blocks, r.b[:len(r.b)-len(rest)]...)
		r.b = rest
	}
	if docs == nil {
		return skips, blocks
	}
	skips = binary.AppendUvarint(skips, uint64(id-prevLast)) // the first block's: its last id
	skips = binary.AppendUvarint(skips, uint64(docsLen))
	skips = binary.AppendUvarint(skips, uint64(len(blocks)-start-docsLen))
	skips = binary.AppendUvarint(skips, uint64(len(imps)))
	var prev impact
	for _, m := range imps {
		skips = binary.AppendUvarint(skips, uint64(m.tf-prev.tf))
		skips = binary.AppendUvarint(skips, uint64(m.len-prev.len))
		prev = m
	}
	return skips, blocks
}

// pastUvarints returns b after its first n uvarints, each ending at a
// byte below 0x80 (b holds them: the builder wrote it).
func pastUvarints(b []byte, n uint64) []byte {
	i := 0
	for ; n > 0; i++ {
		if b[i] < 0x80 {
			n--
		}
	}
	return b[i:]
}

// addImpact adds m to imps, the pairs no document of a block beats (in
// increasing frequency, then increasing length: a pair of higher
// frequency and no greater length beats another), and keeps at most
// maxImpacts of them by merging the two of lowest frequency into one
// that beats both.
func addImpact(imps []impact, m impact) []impact {
	if len(imps) == 1 && imps[0].tf >= m.tf && imps[0].len <= m.len {
		return imps // the common case: beaten by the one pair
	}
	for _, o := range imps {
		if o.tf >= m.tf && o.len <= m.len {
			return imps // m is beaten
		}
	}
	imps = slices.DeleteFunc(imps, func(o impact) bool { return o.tf <= m.tf && o.len >= m.len })
	i, _ := slices.BinarySearchFunc(imps, m, func(o, m impact) int { return int(o.tf) - int(m.tf) })
	imps = slices.Insert(imps, i, m)
	if len(imps) > maxImpacts {
		imps[1].len = imps[0].len
		imps = slices.Delete(imps, 0, 1)
	}
	return imps
}
