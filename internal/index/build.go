package index

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/search"
)

// docInfo is what a segment keeps of one message (doc.go, "Documents").
type docInfo struct {
	slot     uint32      // the source's slot in the manifest
	position uint32      // 1-based position of the message in its source
	tokens   uint32      // number of terms, for BM25's length normalisation
	role     string      // user, assistant, system, tool
	at       int64       // when it was recorded, Unix seconds; 0 when unknown
	family   uint64      // first 8 bytes of the message's hash: forks share it
	before   journal.Pos // where its journal record starts (journal sources)
}

// builder gathers the postings of the documents of one segment in memory.
type builder struct {
	docs      []docInfo
	terms     map[string]*plist // folded term → its list
	raw       map[string]*plist // token as written → its list (nil: not a term)
	touched   []*plist          // lists of the document being added
	textBytes int
}

// rawCacheMax bounds the builder's cache of tokens as written.
const rawCacheMax = 1 << 18

func newBuilder() *builder {
	return &builder{terms: map[string]*plist{}, raw: map[string]*plist{}}
}

// add indexes one message of text; d.tokens is set here.
func (b *builder) add(d docInfo, text string) {
	id := uint32(len(b.docs))
	n := uint32(0)
	search.EachToken(text, func(tok string) bool {
		p, ok := b.raw[tok]
		if !ok {
			if len(b.raw) >= rawCacheMax {
				clear(b.raw)
			}
			if f := search.Fold(tok); f != "" {
				if p = b.terms[f]; p == nil {
					p = &plist{}
					b.terms[strings.Clone(f)] = p
				}
			}
			b.raw[strings.Clone(tok)] = p
		}
		if p == nil {
			return true
		}
		if len(p.cur) == 0 {
			b.touched = append(b.touched, p)
		}
		p.cur = append(p.cur, n)
		n++
		return true
	})
	d.tokens = n
	b.docs = append(b.docs, d)
	for _, p := range b.touched {
		p.appendDoc(id, p.cur, b.docs)
		p.cur = p.cur[:0]
	}
	b.touched = b.touched[:0]
	b.textBytes += len(text)
}

// Sizes of a segment's parts (doc.go, "Segments").
const (
	blockBytes   = 64 << 10 // postings per frame, about
	restartEvery = 64       // dictionary entries between full terms
	trailerBytes = 24
)

// segmentLists is what encodeSegment writes: sorted terms and their lists.
type segmentLists struct {
	terms []string
	lists []*plist
}

// sorted returns b's terms in byte order with their lists.
func (b *builder) sorted() segmentLists {
	var s segmentLists
	s.terms = make([]string, 0, len(b.terms))
	for t := range b.terms {
		s.terms = append(s.terms, t)
	}
	slices.Sort(s.terms)
	s.lists = make([]*plist, len(s.terms))
	for i, t := range s.terms {
		s.lists[i] = b.terms[t]
	}
	return s
}

// encodeSegment returns the bytes of the segment file named file holding
// docs and the sorted posting lists of sl, sealed with key unless zero.
func encodeSegment(file string, key seal.Key, docs []docInfo, sl segmentLists) ([]byte, error) {
	out := header(kindSegment, !key.IsZero())
	var dict, block []byte
	var blocks []int64
	var err error
	flush := func() {
		if len(block) == 0 || err != nil {
			return
		}
		blocks = append(blocks, int64(len(out)))
		out, err = appendFrame(out, key, file, block)
		block = block[:0]
	}
	prev := ""
	for i, t := range sl.terms {
		if len(block) >= blockBytes {
			flush()
		}
		shared := 0
		if i%restartEvery != 0 {
			for shared < len(prev) && shared < len(t) && prev[shared] == t[shared] {
				shared++
			}
		}
		l := sl.lists[i]
		dict = binary.AppendUvarint(dict, uint64(shared))
		dict = appendString(dict, t[shared:])
		dict = binary.AppendUvarint(dict, uint64(l.df))
		dict = binary.AppendUvarint(dict, uint64(len(blocks)))
		dict = binary.AppendUvarint(dict, uint64(len(block)))
		at := len(block)
		block = l.appendTo(block, docs)
		dict = binary.AppendUvarint(dict, uint64(len(block)-at))
		prev = t
	}
	flush()
	if err != nil {
		return nil, err
	}
	docsOff := int64(len(out))
	if out, err = appendFrame(out, key, file, encodeDocs(docs)); err != nil {
		return nil, err
	}
	head := binary.AppendUvarint(nil, uint64(len(blocks)))
	for _, b := range blocks {
		head = binary.AppendUvarint(head, uint64(b))
	}
	head = binary.AppendUvarint(head, uint64(len(sl.terms)))
	dictOff := int64(len(out))
	if out, err = appendFrame(out, key, file, append(head, dict...)); err != nil {
		return nil, err
	}
	t := binary.LittleEndian.AppendUint64(nil, uint64(docsOff))
	t = binary.LittleEndian.AppendUint64(t, uint64(dictOff))
	t = binary.LittleEndian.AppendUint32(t, 0)
	t = binary.LittleEndian.AppendUint32(t, crc32.Checksum(t, castagnoli))
	return append(out, t...), nil
}

// encodeDocs returns the plaintext of a segment's documents frame.
func encodeDocs(docs []docInfo) []byte {
	b := binary.AppendUvarint(nil, uint64(len(docs)))
	for _, d := range docs {
		b = binary.AppendUvarint(b, uint64(d.slot))
		b = binary.AppendUvarint(b, uint64(d.position))
		b = binary.AppendUvarint(b, uint64(d.tokens))
		b = appendString(b, d.role)
		b = binary.AppendVarint(b, d.at)
		b = binary.LittleEndian.AppendUint64(b, d.family)
		b = binary.AppendVarint(b, d.before.Seq)
		b = binary.AppendVarint(b, d.before.Offset)
		b = binary.AppendUvarint(b, uint64(d.before.Line))
	}
	return b
}
