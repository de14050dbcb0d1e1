package index

import (
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/atomicfile"
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
	defer ix.mu.Unlock()
	ix.job = nil
	if done != nil {
		ix.maybeMerge() // a fold may have filled a tier; this job's hold of the lock is still on
	}
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
