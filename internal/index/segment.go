package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// segment is an open segment: a file, or one held in memory (an entry of
// the log). Its dictionary is read when it opens; its documents on first
// use; its postings frames as queries need them, kept while their total
// stays under blockCacheBytes.
type segment struct {
	name   string
	r      io.ReaderAt
	size   int64
	f      *os.File    // the segment file; nil for one in memory
	info   os.FileInfo // f's, to tell whether name still holds it
	key    seal.Key
	docsAt int64
	blocks []int64  // offset of each postings frame
	nTerms int      // terms in the dictionary
	dict   []byte   // dictionary entries (doc.go, "Dictionary")
	starts []string // full term of every restartEvery-th entry
	at     []int    // offset in dict of each of those entries

	mu         sync.Mutex
	docs       []docInfo
	cache      map[int][]byte
	cacheBytes int
}

// blockCacheBytes bounds the postings frames a segment keeps decoded.
const blockCacheBytes = 32 << 20

// dictEntry locates one term's postings.
type dictEntry struct {
	df, block, off, n uint64
}

// openSegment opens the segment file name under dir and reads its
// dictionary. Errors wrap ErrDamaged or ErrTooNew for a file that cannot
// be trusted, or are the file system's.
func openSegment(dir, name string, key seal.Key) (*segment, error) {
	f, info, err := storefile.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	s := &segment{name: name, r: f, size: info.Size(), f: f, info: info, key: key, cache: map[int][]byte{}}
	if err := s.load(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// memSegment opens the plaintext segment data, named name in errors.
func memSegment(name string, data []byte) (*segment, error) {
	s := &segment{name: name, r: bytes.NewReader(data), size: int64(len(data)), cache: map[int][]byte{}}
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *segment) load() error {
	h := make([]byte, headerBytes)
	if _, err := s.r.ReadAt(h, 0); err != nil && s.size >= headerBytes {
		return err
	}
	if err := checkHeader(s.name, h, kindSegment, s.key); err != nil {
		return err
	}
	if s.size < headerBytes+trailerBytes {
		return i18n.Errorf("%w: %s is cut short (%d bytes)", ErrDamaged, s.name, s.size)
	}
	t := make([]byte, trailerBytes)
	if _, err := s.r.ReadAt(t, s.size-trailerBytes); err != nil {
		return err
	}
	if crc32.Checksum(t[:20], castagnoli) != binary.LittleEndian.Uint32(t[20:]) {
		return i18n.Errorf("%w: %s: trailer checksum mismatch (cut short or overwritten)", ErrDamaged, s.name)
	}
	s.docsAt = int64(binary.LittleEndian.Uint64(t))
	pt, _, err := readFrame(s.r, s.key, s.name, int64(binary.LittleEndian.Uint64(t[8:])))
	if err != nil {
		return err
	}
	r := reader{b: pt}
	s.blocks = make([]int64, r.uvarint())
	for i := range s.blocks {
		s.blocks[i] = int64(r.uvarint())
	}
	s.nTerms = int(r.uvarint())
	s.dict = r.b
	var cur []byte
	for i := 0; i < s.nTerms; i++ {
		at := len(s.dict) - len(r.b)
		if i%restartEvery == 0 {
			cur = cur[:0]
		}
		var err error
		if cur, _, err = nextEntry(&r, cur); err != nil {
			return i18n.Errorf("%w: %s: dictionary entry %d: %v", ErrDamaged, s.name, i, err)
		}
		if i%restartEvery == 0 {
			s.starts, s.at = append(s.starts, string(cur)), append(s.at, at)
		}
	}
	if r.err != nil {
		return i18n.Errorf("%w: %s: dictionary: %v", ErrDamaged, s.name, r.err)
	}
	return nil
}

// lookup returns where term's postings are, if the segment holds it.
func (s *segment) lookup(term string) (dictEntry, bool) {
	k := sort.SearchStrings(s.starts, term)
	if k < len(s.starts) && s.starts[k] == term {
		k++
	}
	if k == 0 {
		return dictEntry{}, false
	}
	r := reader{b: s.dict[s.at[k-1]:]}
	var cur []byte
	for i := (k - 1) * restartEvery; i < min(k*restartEvery, s.nTerms); i++ {
		var e dictEntry
		var err error
		if cur, e, err = nextEntry(&r, cur); err != nil || string(cur) > term {
			break
		}
		if string(cur) == term {
			return e, true
		}
	}
	return dictEntry{}, false
}

// postings returns the postings of e (doc.go, "Postings").
func (s *segment) postings(e dictEntry) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.block >= uint64(len(s.blocks)) {
		return nil, i18n.Errorf("%w: %s: dictionary names postings frame %d of %d", ErrDamaged, s.name, e.block, len(s.blocks))
	}
	b, ok := s.cache[int(e.block)]
	if !ok {
		var err error
		if b, _, err = readFrame(s.r, s.key, s.name, s.blocks[e.block]); err != nil {
			return nil, err
		}
		if s.cacheBytes+len(b) > blockCacheBytes {
			clear(s.cache)
			s.cacheBytes = 0
		}
		s.cache[int(e.block)], s.cacheBytes = b, s.cacheBytes+len(b)
	}
	if e.off+e.n > uint64(len(b)) {
		return nil, i18n.Errorf("%w: %s: postings past the end of frame %d", ErrDamaged, s.name, e.block)
	}
	return b[e.off : e.off+e.n], nil
}

// documents returns the segment's documents, reading them on first use.
func (s *segment) documents() ([]docInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs != nil {
		return s.docs, nil
	}
	pt, _, err := readFrame(s.r, s.key, s.name, s.docsAt)
	if err != nil {
		return nil, err
	}
	r := reader{b: pt}
	n := r.uvarint()
	if n > uint64(len(pt)) {
		return nil, i18n.Errorf("%w: %s: documents frame claims %d documents", ErrDamaged, s.name, n)
	}
	docs := make([]docInfo, n)
	roles := map[string]string{}
	for i := range docs {
		d := &docs[i]
		d.slot, d.position, d.tokens = uint32(r.uvarint()), uint32(r.uvarint()), uint32(r.uvarint())
		role := r.bytes(r.uvarint())
		if d.role = roles[string(role)]; d.role == "" {
			d.role = string(role)
			roles[d.role] = d.role
		}
		d.at = r.varint()
		if fam := r.bytes(8); len(fam) == 8 {
			d.family = binary.LittleEndian.Uint64(fam)
		}
		d.before = journal.Pos{Seq: r.varint(), Offset: r.varint(), Line: int(r.uvarint())}
	}
	if r.err != nil {
		return nil, i18n.Errorf("%w: %s: documents: %v", ErrDamaged, s.name, r.err)
	}
	s.docs = docs
	return docs, nil
}

// close closes the segment's file, if it has one.
func (s *segment) close() error {
	if s.f == nil {
		return nil
	}
	return s.f.Close()
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
			return i18n.Errorf("%w: %s: dictionary entry %d: %v", ErrDamaged, s.name, i, err)
		}
		if err := fn(string(cur), e); err != nil {
			return err
		}
	}
	return nil
}
