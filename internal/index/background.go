package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// A merge runs in the background, so that an update after a turn never
// waits for one: once the log is due to be folded (logMaxBytes,
// logMaxEntries) or a tier holds mergeCount segments (tierGroup's
// policy), the update that saw it starts one goroutine, which
//
//   - under ix.mu, notes what it merges (the log's entries so far, the
//     tier's segments, the tombstones) and reserves the names of the files
//     it writes (next_segment);
//   - without ix.mu, writes the new segments from the segments it noted,
//     which are never changed (the log's entries are held in memory, the
//     tier's files are opened again);
//   - under ix.mu, checks that the index still holds what it noted (a
//     rebuild, a reload or a fold by a large update makes it give up and
//     remove what it wrote), writes a new log holding the entries appended
//     meanwhile, then the manifest naming both, and removes the files they
//     replace.
//
// It holds the index's lock file from start to end, shared with the
// updates of its own process (lockRef) and keeping other processes'
// updates out, so no other writer sees its files, unnamed yet, as strays.
// A process that exits meanwhile leaves the manifest it found (what the
// merge wrote is removed as strays by the next update), or, once the
// manifest's rename is done, the new manifest; the manifest's write is
// atomic (atomicfile), so never a broken one.

// mergeJob is a merge in the background: what it noted and reserved.
type mergeJob struct {
	gen     uint64          // ix.gen when noted: another means the index was replaced
	log     string          // the log folded, and its length folded
	logEnd  int64           //
	entries []segmentMeta   // the log's entries holding documents, folded
	group   []segmentMeta   // the tier's segments merged
	others  []*segment      // the other segment files, for the tombstones they still need
	dead    map[uint32]bool // the tombstones when noted
	// foldFile, mergeFile and newLog are the files reserved: the fold's
	// segment, the tier's, the new log ("" when not written).
	foldFile, mergeFile, newLog string
	unlock                      func()
}

// mergeStarts is called as a merge's goroutine starts; a seam, so a test
// can hold a merge while updates go on.
var mergeStarts = func() {}

// holds reports whether the file name is one j writes or replaces,
// which removeStrays leaves to it.
func (j *mergeJob) holds(name string) bool {
	if name == j.foldFile || name == j.mergeFile || name == j.newLog || name == j.log {
		return true
	}
	return slices.ContainsFunc(j.group, func(sm segmentMeta) bool { return sm.File == name })
}

// maybeMerge starts a merge in the background when one is due and none
// runs; the caller holds ix.mu and the write lock.
func (ix *Index) maybeMerge() {
	if ix.job != nil || ix.closing || ix.man == nil {
		return
	}
	fold := ix.man.Log != "" && ix.logEntries > 0 && (ix.logEntries >= logMaxEntries || ix.logEnd >= logMaxBytes)
	group := ix.tierGroup()
	if !fold && group == nil {
		return
	}
	unlock, err := ix.lock() // a second hold of the lock this update holds: it does not wait
	if err != nil {
		return
	}
	j := &mergeJob{gen: ix.gen, group: group, dead: maps.Clone(ix.dead), unlock: unlock}
	in := map[string]bool{}
	for _, sm := range group {
		in[sm.File] = true
	}
	for _, sm := range ix.man.Segments {
		switch {
		case fold && isLogSegment(sm.File):
			j.entries = append(j.entries, sm)
		case !in[sm.File]:
			j.others = append(j.others, ix.segs[sm.File])
		}
	}
	if fold {
		j.log, j.logEnd = ix.man.Log, ix.logEnd
		if len(j.entries) > 0 {
			j.foldFile = segmentFile(ix.man.NextSegment)
			ix.man.NextSegment++
		}
		j.newLog = logFile(ix.man.NextSegment)
		ix.man.NextSegment++
	}
	if group != nil {
		j.mergeFile = segmentFile(ix.man.NextSegment)
		ix.man.NextSegment++
	}
	logs := make([]*segment, len(j.entries))
	for i, sm := range j.entries {
		logs[i] = ix.segs[sm.File]
	}
	ix.job = j
	ix.jobs.Go(func() { ix.runMerge(j, logs) })
}

// mergeResult is what a merge wrote: its segments, opened, and the
// tombstones no segment needs any more.
type mergeResult struct {
	folded, merged *segment
	pruned         map[uint32]bool
}

// runMerge is a merge's goroutine: it writes the segments of j (logs
// are the log's entries it noted), then installs them: its new log and
// manifest are written without ix.mu, and only the manifest's rename and
// the index's change in memory take it, once no entry was appended to
// the log meanwhile (else it writes them again, holding ix.mu the third
// time).
func (ix *Index) runMerge(j *mergeJob, logs []*segment) {
	defer j.unlock()
	mergeStarts()
	res, err := ix.writeMerge(j, logs)
	var done *mergePlan
	for try := 0; err == nil && done == nil; try++ {
		held := try >= 2
		ix.mu.Lock()
		var p *mergePlan
		if p, err = ix.planMerge(j, res); err == nil && !held {
			ix.mu.Unlock()
			err = p.write(ix)
			ix.mu.Lock()
		} else if err == nil {
			err = p.write(ix)
		}
		if err == nil {
			if err = ix.commitMerge(j, res, p); err == nil {
				done = p
			} else if err == errLogGrew {
				err = nil
			}
		}
		if done == nil {
			p.discard()
		}
		ix.mu.Unlock()
	}
	if done != nil {
		atomicfile.SyncDir(ix.dir) // before removing what the new manifest replaced
		for _, name := range done.replaced {
			os.Remove(filepath.Join(ix.dir, name))
		}
	} else {
		for _, s := range []*segment{res.folded, res.merged} {
			if s != nil {
				s.close()
			}
		}
		for _, name := range []string{j.foldFile, j.mergeFile, j.newLog} {
			if name != "" {
				os.Remove(filepath.Join(ix.dir, name))
			}
		}
	}
	ix.mu.Lock()
	ix.job = nil
	ix.mu.Unlock()
}

// writeMerge writes the segments of j: the fold of the log's entries
// logs, the merge of the tier's segments, each without the documents of
// tombstones, and says which tombstones no other segment needs.
func (ix *Index) writeMerge(j *mergeJob, logs []*segment) (mergeResult, error) {
	var res mergeResult
	var err error
	if j.foldFile != "" {
		b := newBuilder()
		for _, s := range logs {
			if err := mergeInto(b, s, j.dead); err != nil {
				return res, err
			}
		}
		if res.folded, err = ix.writeNamed(j.foldFile, b); err != nil {
			return res, err
		}
	}
	if j.mergeFile != "" {
		b := newBuilder()
		for _, sm := range j.group {
			s, err := openSegment(ix.dir, sm.File, ix.key) // its own handle: the index's may close
			if err == nil {
				err = mergeInto(b, s, j.dead)
				s.close()
			}
			if err != nil {
				return res, err
			}
		}
		if res.merged, err = ix.writeNamed(j.mergeFile, b); err != nil {
			return res, err
		}
	}
	res.pruned = maps.Clone(j.dead)
	for _, s := range j.others {
		docs, err := s.documents()
		if err != nil {
			res.pruned = nil // a tombstone is dropped only when known to be unneeded
			break
		}
		for _, d := range docs {
			delete(res.pruned, d.slot)
		}
	}
	return res, nil
}

// writeNamed writes b as the segment file name, durably, and opens it;
// nil when b holds no document.
func (ix *Index) writeNamed(name string, b *builder) (*segment, error) {
	if len(b.docs) == 0 {
		return nil, nil
	}
	data, err := encodeSegment(name, ix.key, b.docs, b.sorted())
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(ix.dir, name), data)
	}
	if err != nil {
		return nil, err
	}
	return openSegment(ix.dir, name, ix.key)
}

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
			return nil, 0, nil, fmt.Errorf("%w: %s: entry at byte %d: %v", ErrDamaged, j.log, off, err)
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
