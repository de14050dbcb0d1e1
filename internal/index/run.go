package index

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/search"
)

// segmentTextBytes is how much message text one segment gathers, at most,
// before it is written: it bounds a build's memory.
var segmentTextBytes = 128 << 20

// progressBytes is how often, in bytes read, Options.Progress hears.
const progressBytes = 4 << 20

// run reads jobs into new segments and writes the manifest naming them.
// A segment is written whenever segmentTextBytes of text gathered, with a
// manifest whose watermarks cover exactly what the segments hold, so an
// interrupted build resumes where it stopped.
func (ix *Index) run(jobs []job) ([]string, error) {
	var total, done, told int64
	for _, j := range jobs {
		total += j.bytes
	}
	tell := func(n int64) {
		done += n
		if ix.o.Progress != nil && done-told >= progressBytes {
			told = done
			ix.o.Progress(done, total)
		}
	}
	var warnings []string
	b := newBuilder()
	flush := func() error {
		if len(b.docs) > 0 {
			if err := ix.writeSegment(b); err != nil {
				return err
			}
			b = newBuilder()
		}
		return ix.man.store(ix.dir, ix.key)
	}
	for _, j := range jobs {
		var err error
		if j.path != "" {
			err = ix.readJournal(j, tell, flush, func() *builder { return b })
		} else {
			err = ix.readSnapshot(j, b)
			tell(j.bytes)
		}
		if err != nil {
			if _, ok := err.(flushError); ok {
				return warnings, err
			}
			warnings = append(warnings, err.Error())
			ix.man.drop(j.src) // what it added is a tombstone; read again next time
			ix.dead[j.src.Slot] = true
		}
	}
	if ix.o.Progress != nil && total > 0 {
		ix.o.Progress(total, total)
	}
	if err := flush(); err != nil {
		return warnings, err
	}
	ix.removeStrays()
	return warnings, nil
}

// flushError is an error writing the index, which stops a Sync.
type flushError struct{ error }

func (e flushError) Unwrap() error { return e.error }

// readJournal indexes the message records of j's journal after its
// watermark. When the builder is full it writes a segment (flush) with
// the watermark just before the record at hand.
func (ix *Index) readJournal(j job, tell func(int64), flush func() error, cur func() *builder) error {
	s := j.src
	last := s.Pos.Offset
	end, _, err := journal.ScanAfter(j.path, ix.o.Store.Key(), s.Pos, func(r journal.Record, before journal.Pos) error {
		tell(before.Offset - last)
		last = before.Offset
		if cur().textBytes >= segmentTextBytes {
			s.Pos = before
			if err := flush(); err != nil {
				return flushError{err}
			}
		}
		if r.Type != journal.TypeMessage || r.Message == nil {
			return nil
		}
		s.Messages++
		text := message.ValidUTF8(search.MessageText(r.Message))
		if text == "" {
			return nil
		}
		d := docInfo{slot: s.Slot, position: uint32(s.Messages), role: string(r.Message.Role),
			family: family(r.Hash, s.Messages), before: before}
		if !r.At.IsZero() {
			d.at = r.At.Unix()
		}
		b := cur()
		b.add(d, text)
		s.Docs++
		s.Tokens += int64(b.docs[len(b.docs)-1].tokens)
		return nil
	})
	tell(end.Offset - last)
	if err != nil {
		if fe, ok := err.(flushError); ok {
			return fe
		}
		return fmt.Errorf("skipped journal %s: %w", s.Journal, err)
	}
	s.Pos = end
	return nil
}

// readSnapshot indexes the history of j's session, which has no journal.
func (ix *Index) readSnapshot(j job, b *builder) error {
	sess, err := ix.o.Store.Load(j.head.Name)
	if err != nil {
		return fmt.Errorf("skipped session %q: %w", j.head.Name, err)
	}
	s := j.src
	at := j.head.UpdatedAt.Unix()
	for i, h := range journal.HashHistory(sess.History) {
		m := &sess.History[i]
		s.Messages++
		text := message.ValidUTF8(search.MessageText(m))
		if text == "" {
			continue
		}
		b.add(docInfo{slot: s.Slot, position: uint32(i + 1), role: string(m.Role), at: at, family: family(h, i+1)}, text)
		s.Docs++
		s.Tokens += int64(b.docs[len(b.docs)-1].tokens)
	}
	return nil
}

// family is the fork-family key of the message of hash at position: the
// same message at the same place of two forks of one conversation has the
// same key (FNV-1a of the hash's bytes and the position).
func family(hash string, position int) uint64 {
	h := fnv.New64a()
	if raw, err := hex.DecodeString(hash); err == nil {
		h.Write(raw)
	} else {
		h.Write([]byte(hash))
	}
	h.Write(binary.AppendUvarint(nil, uint64(position)))
	return h.Sum64()
}

// writeSegment writes b as a new segment, durably, and adds it to the
// manifest (in memory: the caller stores the manifest).
func (ix *Index) writeSegment(b *builder) error {
	name := segmentFile(ix.man.NextSegment)
	data, err := encodeSegment(name, ix.key, b.docs, b.sorted())
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ix.dir, name), data); err != nil {
		return err
	}
	ix.man.NextSegment++
	s, err := openSegment(ix.dir, name, ix.key)
	if err != nil {
		return err
	}
	ix.segs[name] = s
	ix.man.Segments = append(ix.man.Segments, segmentMeta{File: name, Docs: len(b.docs), Bytes: int64(len(data))})
	return nil
}

// removeStrays removes segment files the manifest does not name: left by
// a build or merge that was interrupted. The caller holds the write lock.
func (ix *Index) removeStrays() {
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, segmentPrefix) && ix.segs[n] == nil {
			os.Remove(filepath.Join(ix.dir, n))
		}
	}
}
