package index

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Merge policy (tiered, as log-structured merge trees merge): segments
// are sorted into tiers by size, tier k holding those of up to
// tierBaseBytes·8^k bytes; once mergeCount segments of one tier have
// gathered they are merged into one, without the documents of retired
// sources, which lands in a higher tier. Only tiers whose merge stays
// within mergeMaxBytes are merged, so a merge holds at most that much in
// memory, an update's small segment is rewritten about log8(n) times in
// all, and the segments a build writes (segmentTextBytes of text, tens of
// megabytes) are never merged.
const (
	mergeCount    = 8
	tierBaseBytes = 64 << 10
	mergeMaxBytes = 32 << 20
)

// tier returns the tier of a segment of n bytes.
func tier(n int64) int {
	k := 0
	for limit := int64(tierBaseBytes); n > limit; limit *= 8 {
		k++
	}
	return k
}

// tierGroup returns the segments of the lowest tier holding mergeCount
// of them, which are due to be merged (in the background: maybeMerge),
// or nil. The log's entries are not among them: they are folded.
func (ix *Index) tierGroup() []segmentMeta {
	tiers := map[int][]segmentMeta{}
	for _, sm := range ix.man.Segments {
		if !isLogSegment(sm.File) {
			tiers[tier(sm.Bytes)] = append(tiers[tier(sm.Bytes)], sm)
		}
	}
	for k := range tier(mergeMaxBytes) { // tier k merges into tier k+1 at most
		if len(tiers[k]) >= mergeCount {
			return tiers[k]
		}
	}
	return nil
}

// replace writes the live documents of the segments of group as one new
// segment file, which takes their place in the manifest (in memory), and
// forgets the tombstones no segment needs any more.
func (ix *Index) replace(group []segmentMeta) error {
	b := newBuilder()
	for _, sm := range group {
		if err := mergeInto(b, ix.segs[sm.File], ix.dead); err != nil {
			return err
		}
	}
	in := map[string]bool{}
	for _, sm := range group {
		in[sm.File] = true
	}
	ix.man.Segments = slices.DeleteFunc(slices.Clone(ix.man.Segments), func(sm segmentMeta) bool { return in[sm.File] })
	if len(b.docs) > 0 {
		if err := ix.writeSegment(b); err != nil {
			return err
		}
	}
	return ix.pruneDead()
}

// dropSegments closes the segments of group, which the stored manifest no
// longer names, and removes their files.
func (ix *Index) dropSegments(group []segmentMeta) {
	for _, sm := range group {
		if s := ix.segs[sm.File]; s != nil {
			s.close()
			delete(ix.segs, sm.File)
		}
		if !isLogSegment(sm.File) {
			os.Remove(filepath.Join(ix.dir, sm.File))
		}
	}
}

// mergeInto appends the documents of s, and their postings, to b,
// leaving out those of the tombstones dead.
func mergeInto(b *builder, s *segment, dead map[uint32]bool) error {
	docs, err := s.documents()
	if err != nil {
		return err
	}
	ids := make([]int64, len(docs)) // old id → id in b, -1 when dropped
	for i, d := range docs {
		ids[i] = -1
		if !dead[d.slot] {
			ids[i] = int64(len(b.docs))
			b.docs = append(b.docs, d)
		}
	}
	return s.each(func(term string, e dictEntry) error {
		data, err := s.postings(e)
		if err != nil {
			return err
		}
		p := b.terms[term]
		if p == nil {
			p = &plist{}
			b.terms[term] = p
		}
		var c postingCursor
		for c.open(data, e.df); c.ok(); c.next() {
			if int(c.doc()) >= len(ids) {
				return i18n.Errorf("%w: %s: postings name document %d of %d", ErrDamaged, s.name, c.doc(), len(ids))
			}
			if id := ids[c.doc()]; id >= 0 {
				p.appendDoc(uint32(id), c.positions(), b.docs)
			}
		}
		if c.err != nil {
			return i18n.Errorf("%w: %s: postings of %q: %v", ErrDamaged, s.name, term, c.err)
		}
		if p.df == 0 {
			delete(b.terms, term)
		}
		return nil
	})
}

// pruneDead keeps in the manifest's tombstones only the slots some
// segment still holds documents of.
func (ix *Index) pruneDead() error {
	held := map[uint32]bool{}
	for _, sm := range ix.man.Segments {
		docs, err := ix.segs[sm.File].documents()
		if err != nil {
			return err
		}
		for _, d := range docs {
			held[d.slot] = true
		}
	}
	ix.man.Dead = slices.DeleteFunc(ix.man.Dead, func(slot uint32) bool { return !held[slot] })
	return nil
}
