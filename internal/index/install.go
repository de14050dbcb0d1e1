package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// errMergeStale says a merge found the index changed under it;
// errLogGrew that entries were appended to the log while it wrote.
var (
	errMergeStale = errors.New("index: the merge's segments were replaced meanwhile")
	errLogGrew    = errors.New("index: the index was written to while the merge wrote")
)

// mergePlan is what a merge writes to install itself: the manifest, the
// new log and what they replace.
type mergePlan struct {
	man      manifest   // as stored: segment files only
	data     []byte     // its bytes, encoded when planned (it shares the sources)
	writes   uint64     // ix.writes when planned
	log      []byte     // the new log's bytes (nil: the log is kept)
	entries  int        // in it
	carried  []*segment // their segments
	tmp      string     // the manifest written, before its rename
	replaced []string   // files to remove once the manifest is durable
}

// planMerge returns the plan installing res in place of what j noted;
// the caller holds ix.mu.
func (ix *Index) planMerge(j *mergeJob, res mergeResult) (*mergePlan, error) {
	if ix.gen != j.gen || ix.man == nil || j.log != "" && (ix.man.Log != j.log || ix.logEnd < j.logEnd) {
		return nil, errMergeStale
	}
	have := map[string]bool{}
	for _, sm := range ix.man.Segments {
		have[sm.File] = true
	}
	gone := map[string]bool{}
	p := &mergePlan{man: *ix.man, writes: ix.writes}
	for _, sm := range slices.Concat(j.entries, j.group) {
		if !have[sm.File] {
			return nil, errMergeStale
		}
		gone[sm.File] = true
		if !isLogSegment(sm.File) {
			p.replaced = append(p.replaced, sm.File)
		}
	}
	p.man.Segments = nil // the segment files: the log's entries are the log's
	for _, sm := range ix.man.Segments {
		if !gone[sm.File] && !isLogSegment(sm.File) {
			p.man.Segments = append(p.man.Segments, sm)
		}
	}
	for _, s := range []*segment{res.folded, res.merged} {
		if s != nil {
			docs, err := s.documents()
			if err != nil {
				return nil, err
			}
			p.man.Segments = append(p.man.Segments, segmentMeta{File: s.name, Docs: len(docs), Bytes: s.size})
		}
	}
	p.man.Dead = slices.DeleteFunc(slices.Clone(p.man.Dead), func(slot uint32) bool { return res.pruned[slot] })
	if j.log != "" {
		p.man.Log, p.man.LogID = j.newLog, rand.Uint64()
		p.replaced = append(p.replaced, j.log)
		var err error
		if p.carried, p.entries, p.log, err = ix.carryLog(j, p.man.LogID); err != nil {
			return nil, err
		}
	}
	var err error
	p.data, err = p.man.encode(ix.key)
	return p, err
}

// write writes p's new log, durably, and its manifest to a temporary
// file; neither is named by the index until commitMerge.
func (p *mergePlan) write(ix *Index) error {
	if p.log != nil {
		if err := atomicfile.WriteFile(filepath.Join(ix.dir, p.man.Log), p.log); err != nil {
			return err
		}
	}
	var err error
	p.tmp, err = atomicfile.WriteTemp(filepath.Join(ix.dir, manifestName), p.data)
	return err
}

// discard removes p's temporary manifest, if written.
func (p *mergePlan) discard() {
	if p != nil && p.tmp != "" {
		os.Remove(p.tmp)
	}
}

// commitMerge renames p's manifest into place, unless the index was
// replaced since p was planned (errMergeStale) or written to (errLogGrew:
// an entry appended, a manifest stored), and
// makes the index in memory hold res in place of what j noted; the
// caller holds ix.mu. The folder's fsync is the caller's, after.
func (ix *Index) commitMerge(j *mergeJob, res mergeResult, p *mergePlan) error {
	if ix.gen != j.gen || ix.man == nil || j.log != "" && ix.man.Log != j.log {
		return errMergeStale
	}
	if ix.writes != p.writes {
		return errLogGrew
	}
	if err := os.Rename(p.tmp, filepath.Join(ix.dir, manifestName)); err != nil {
		return err
	}
	for _, sm := range slices.Concat(j.entries, j.group) {
		if s := ix.segs[sm.File]; s != nil {
			s.close()
			delete(ix.segs, sm.File)
		}
	}
	for _, s := range []*segment{res.folded, res.merged} {
		if s != nil {
			ix.segs[s.name] = s
		}
	}
	if j.log != "" {
		for _, sm := range ix.man.Segments {
			if isLogSegment(sm.File) {
				delete(ix.segs, sm.File) // carried into the new log, under new names
			}
		}
		ix.man.Log, ix.man.LogID = p.man.Log, p.man.LogID
		ix.logEnd, ix.logEntries = int64(len(p.log)), p.entries
	}
	var entries []segmentMeta
	for _, sm := range ix.man.Segments {
		if isLogSegment(sm.File) && j.log == "" {
			entries = append(entries, sm)
		}
	}
	ix.man.Segments = slices.Concat(p.man.Segments, entries)
	for _, s := range p.carried {
		ix.addLogSegment(s)
	}
	ix.man.Dead = p.man.Dead
	ix.dead = map[uint32]bool{}
	for _, slot := range ix.man.Dead {
		ix.dead[slot] = true
	}
	ix.writes++
	ix.noteManifest()
	return nil
}

// carryLog returns the bytes of j's new log, for the log id id, holding
// the entries appended to the old one since j noted it, with their
// segments and number. Every entry is whole: the caller holds ix.mu,
// which appends take.
func (ix *Index) carryLog(j *mergeJob, id uint64) ([]*segment, int, []byte, error) {
	data := header(kindLog, !ix.key.IsZero())
	if ix.logEnd <= j.logEnd {
		return nil, 0, data, nil
	}
	old, err := storefile.ReadFile(filepath.Join(ix.dir, j.log))
	if err != nil {
		return nil, 0, nil, err
	}
	var segs []*segment
	n, r := 0, bytes.NewReader(old)
	for off := j.logEnd; off < ix.logEnd; n++ {
		pt, next, err := readFrame(r, ix.key, j.log, off)
		if err != nil || len(pt) < 8 {
			return nil, 0, nil, i18n.Errorf("%w: %s: entry at byte %d: %v", ErrDamaged, j.log, off, err)
		}
		at := int64(len(data))
		binary.LittleEndian.PutUint64(pt, id)
		if data, err = appendFrame(data, ix.key, j.newLog, pt); err != nil {
			return nil, 0, nil, err
		}
		e := reader{b: pt[8:]}
		e.bytes(e.uvarint())
		if e.err == nil && len(e.b) > 0 {
			s, err := memSegment(fmt.Sprintf("%s@%d", j.newLog, at), e.b)
			if err != nil {
				return nil, 0, nil, err
			}
			segs = append(segs, s)
		}
		off = next
	}
	return segs, n, data, nil
}
