package index

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// The log (doc.go, "Log") takes small updates, such as one turn, in one
// durable write each: an entry appended and fsynced. Its entries are
// folded into a segment by the next manifest written.
const (
	logPrefix = "log-"
	logExt    = ".ccl"
	// logUpdateBytes is the most an update may have left to read (of
	// journals and snapshots) to be appended to the log; a larger one
	// writes segments and a manifest.
	logUpdateBytes = 1 << 20
	// logMaxBytes and logMaxEntries bound the log: once it is that long,
	// or holds that many entries, a merge in the background folds the
	// log's entries into a segment and writes a manifest naming a new
	// log. They bound what a new process reads and holds of the log, and
	// the segments a query looks its terms up in.
	logMaxBytes = 4 << 20
)

// logMaxEntries: see logMaxBytes (a variable, so tests fold often).
var logMaxEntries = 64

// logFile is the name of the log numbered seq (MANIFEST's next_segment).
func logFile(seq uint64) string { return fmt.Sprintf("%s%016x%s", logPrefix, seq, logExt) }

// isLogSegment reports whether the segment named name is an entry of a
// log, held in memory, rather than a segment file.
func isLogSegment(name string) bool { return strings.HasPrefix(name, logPrefix) }

// writeLogAt writes an entry to the log; a seam, so a test can make the
// disk full.
var writeLogAt = (*os.File).WriteAt

// replayLog reads the log ix.man names and applies its entries to the
// manifest and segments in memory. The entries end at the first frame
// that does not read whole (an append cut by a crash: the index is then
// as it was before that append); ix.logEnd is where. An entry that reads
// whole but does not decode is ErrDamaged.
func (ix *Index) replayLog() error {
	ix.logEnd, ix.logEntries = 0, 0
	if ix.man.Log == "" {
		return nil
	}
	path := filepath.Join(ix.dir, ix.man.Log)
	data, err := storefile.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return i18n.Errorf("%w: %s names %s, which is missing", ErrDamaged, manifestName, ix.man.Log)
	}
	if err != nil {
		return i18n.Errorf("index: read %s: %w", path, err)
	}
	if err := checkHeader(path, data, kindLog, ix.key); err != nil {
		return err
	}
	off, r := int64(headerBytes), bytes.NewReader(data)
	for off+frameHead < int64(len(data)) {
		if binary.LittleEndian.Uint32(data[off:]) == 0 {
			break // zeros, as a crash may leave past the last write: no entry is empty
		}
		pt, next, err := readFrame(r, ix.key, ix.man.Log, off)
		if err != nil {
			break // cut short by a crash: what follows was never acknowledged
		}
		if err := ix.applyEntry(off, pt); err != nil {
			return err
		}
		off = next
		ix.logEntries++
	}
	ix.logEnd = off
	return nil
}

// applyEntry applies the log entry whose frame starts at off and whose
// plaintext is pt: its delta to the manifest, its segment to the open
// segments.
func (ix *Index) applyEntry(off int64, pt []byte) error {
	r := reader{b: pt}
	id := r.bytes(8)
	js := r.bytes(r.uvarint())
	var d delta
	switch {
	case r.err != nil:
	case binary.LittleEndian.Uint64(id) != ix.man.LogID:
		r.err = i18n.Errorf("written for another manifest (log id %s, the manifest's %s)", hex.EncodeToString(id), strconv.FormatUint(ix.man.LogID, 16))
	default:
		r.err = json.Unmarshal(js, &d)
	}
	if r.err != nil {
		return i18n.Errorf("%w: %s: entry at byte %d: %v", ErrDamaged, ix.man.Log, off, r.err)
	}
	ix.man.apply(d)
	ix.dead = map[uint32]bool{}
	for _, slot := range ix.man.Dead {
		ix.dead[slot] = true
	}
	if len(r.b) == 0 {
		return nil
	}
	name := fmt.Sprintf("%s@%d", ix.man.Log, off)
	s, err := memSegment(name, r.b)
	if err != nil {
		return err
	}
	ix.addLogSegment(s)
	return nil
}

// addLogSegment adds s, an entry of the log, to the open segments.
func (ix *Index) addLogSegment(s *segment) {
	ix.segs[s.name] = s
	ix.man.Segments = append(ix.man.Segments, segmentMeta{File: s.name, Bytes: s.size})
}

// logged reports whether an update that has total bytes left to read
// goes to the log. A log due to be folded (logMaxBytes, logMaxEntries)
// still takes updates while the merge folding it runs in the background
// (maybeMerge), up to logHardFactor times those bounds, past which the
// update folds it itself (a merge that keeps failing).
func (ix *Index) logged(total int64) bool {
	return ix.man.Log != "" && ix.logEnd >= headerBytes && ix.logEnd < logHardFactor*logMaxBytes &&
		ix.logEntries < logHardFactor*logMaxEntries && total <= logUpdateBytes
}

// logHardFactor: see logged.
const logHardFactor = 4

// runLogged reads jobs, which are small (logged), and appends one entry
// holding their documents and the manifest's changes since prev to the
// log, durably: the one write of the update.
func (ix *Index) runLogged(jobs []job, prev snapshot) ([]i18n.Text, error) {
	var mu sync.Mutex
	w := &worker{ix: ix, b: newBuilder(), pending: map[*source]mark{}, tell: func(int64) {}}
	var warnings []i18n.Text
	for _, j := range jobs {
		skipped, err := w.read(j, &mu)
		warnings = append(warnings, skipped...)
		if err != nil {
			warnings = append(warnings, ix.unread(w, j, err)...)
		}
	}
	w.settle()
	return warnings, ix.appendLog(ix.man.diff(prev), w.b)
}

// appendLog appends the entry of d and the documents of b to the log and
// fsyncs it. On an error the log is cut back to its length before, and
// the error returned: the caller's Sync fails, and the next reads the
// index from disk again.
func (ix *Index) appendLog(d delta, b *builder) error {
	js, err := json.Marshal(d)
	if err != nil {
		return err
	}
	pt := binary.LittleEndian.AppendUint64(nil, ix.man.LogID)
	pt = append(binary.AppendUvarint(pt, uint64(len(js))), js...)
	at := len(pt)
	if len(b.docs) > 0 { // a plaintext segment: the entry's frame seals it whole
		seg, err := encodeSegment("", seal.Key{}, b.docs, b.sorted())
		if err != nil {
			return err
		}
		pt = append(pt, seg...)
	}
	entry, err := appendFrameAt(nil, ix.logEnd, ix.key, ix.man.Log, pt)
	if err != nil {
		return err
	}
	path := filepath.Join(ix.dir, ix.man.Log)
	f, info, err := storefile.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return i18n.Errorf("index: %w", err)
	}
	defer f.Close()
	if info.Size() != ix.logEnd { // the rest of an append a crash cut
		err = f.Truncate(ix.logEnd)
	}
	if err == nil {
		_, err = writeLogAt(f, entry, ix.logEnd)
	}
	if err == nil {
		err = atomicfile.SyncData(f)
	}
	if err != nil {
		f.Truncate(ix.logEnd)
		return i18n.Errorf("index: append to %s: %w", path, err)
	}
	if at < len(pt) {
		s, err := memSegment(fmt.Sprintf("%s@%d", ix.man.Log, ix.logEnd), pt[at:])
		if err != nil {
			return err
		}
		ix.addLogSegment(s)
	}
	ix.logEnd += int64(len(entry))
	ix.logEntries++
	ix.writes++
	return nil
}

// storeManifest writes the manifest, durably, as the index's new base:
// the log's entries are folded into one segment file first, and a log
// holding entries is replaced by a new, empty one, which the manifest
// names; the old log is then removed. Until the manifest's rename, the
// old manifest and log stand. The caller holds the write lock.
func (ix *Index) storeManifest() error {
	folded, err := ix.foldLog()
	if err != nil {
		return err
	}
	old := ix.man.Log
	if old == "" || ix.logEnd != headerBytes {
		name := logFile(ix.man.NextSegment)
		if err := atomicfile.WriteFile(filepath.Join(ix.dir, name), header(kindLog, !ix.key.IsZero())); err != nil { // over a stray of a write a crash cut
			return i18n.Errorf("index: %w", err)
		}
		ix.man.NextSegment++
		ix.man.Log, ix.man.LogID = name, rand.Uint64()
	}
	if err := ix.man.store(ix.dir, ix.key); err != nil {
		return err
	}
	ix.writes++
	if old != "" && old != ix.man.Log {
		os.Remove(filepath.Join(ix.dir, old))
	}
	ix.logEnd, ix.logEntries = headerBytes, 0
	ix.dropSegments(folded)
	return nil
}

// foldLog replaces the segments of the log's entries with one segment
// file holding their live documents, and returns those it replaced; the
// manifest naming the new file is the caller's to store.
func (ix *Index) foldLog() ([]segmentMeta, error) {
	var group []segmentMeta
	for _, sm := range ix.man.Segments {
		if isLogSegment(sm.File) {
			group = append(group, sm)
		}
	}
	if len(group) == 0 {
		return nil, nil
	}
	return group, ix.replace(group)
}
