package journal

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

const fileExt = ".jsonl"

// Journal is one open transcript. It is not safe for concurrent use within
// a process; across processes, appends are serialised by a file lock and
// each Sync first reads what others appended.
type Journal struct {
	id, path string
	now      func() time.Time
	key      seal.Key // seals appended lines; zero: plaintext
	plain    int      // plaintext lines read so far (sealed away before appending with a key)

	view  []string            // the hash list of the history as last recorded
	known map[string]struct{} // every hash with a message record
	pos   Pos                 // how far the file has been read
	// file is the file pos counts in (the inode last read or appended
	// to); nil when none was read, or when this handle replaced the file
	// (sealPlainLines). Another process replaces the file when it seals
	// or rekeys it; pos then means nothing, and Sync reads it again from
	// the top.
	file os.FileInfo
	// checkpoints is the checkpoint list as the records read or written
	// leave it; cpsKnown says that it is the journal's own (read from
	// the top, or set whole by a checkpoints record since), not only
	// what records after an OpenAt position added to an unknown list. A
	// checkpoint is recorded as added only to a known list.
	checkpoints CheckpointList
	cpsKnown    bool
	// placed is set by OpenAt until the first read checked that pos
	// still names the record after it; moved, when the file was replaced
	// since the last read; rebased is set by the rescan that follows.
	placed, moved bool
	rebased       []string
	// unsure is set when an append failed after its write may have landed.
	unsure bool
}

// NewID returns a fresh journal id: 32 random lowercase hex digits.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// ValidID reports whether id can name a journal file: 1-64 lowercase hex
// digits, so no id can reach outside the journal folder.
func ValidID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Path returns the file of journal id under dir.
func Path(dir, id string) string { return filepath.Join(dir, id+fileExt) }

// Open opens journal id under dir (creating dir, mode 0700, but not the
// file, which the first Sync creates) and replays it to rebuild its view.
// The warnings name every damaged line that was skipped. An id that is not
// 1-64 lowercase hex digits is refused. With key set (seal.ParseKey) sealed
// lines are opened and every appended line is sealed; with the zero Key a
// journal holding sealed lines fails with ErrEncrypted. A key that opens
// none of the sealed lines fails with an error wrapping seal.ErrWrongKey.
func Open(dir, id string, key seal.Key) (*Journal, []Warning, error) {
	if !ValidID(id) {
		return nil, nil, fmt.Errorf("journal: invalid id %q", id)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("journal: create %s: %w", dir, err)
	}
	j := &Journal{id: id, path: Path(dir, id), now: time.Now, key: key}
	j.reset()
	res, err := j.refresh(nil)
	return j, res.Warnings, err
}

// ID is the journal's id; Path its file.
func (j *Journal) ID() string   { return j.id }
func (j *Journal) Path() string { return j.path }

// SetClock replaces the clock used for record times (tests).
func (j *Journal) SetClock(now func() time.Time) { j.now = now }

// reset forgets everything read, so the next refresh reads the file from
// the top.
func (j *Journal) reset() {
	j.view, j.known, j.pos, j.plain, j.file = nil, map[string]struct{}{}, top, 0, nil
	j.checkpoints, j.cpsKnown = CheckpointList{}, true
}

// refresh applies the records appended since the last read to the view.
// On an error the handle forgets everything read: a later refresh starts
// again from the top, so a line that failed (a sealed line read without
// a key) is never stepped over.
//
// fn, when set, hears every record read, after it was applied.
func (j *Journal) refresh(fn func(Record)) (ScanResult, error) {
	var res ScanResult
	err := errNotAtLine
	j.rebased = nil
	at := j.pos
	if !j.moved {
		res, err = j.scanFrom(fn)
	}
	if errors.Is(err, errNotAtLine) { // the lines moved: positioned by OpenAt, or the file replaced
		j.pos = at // scanFrom forgot it
		res, err = j.rescan(fn)
	}
	j.placed, j.moved = false, false
	return res, err
}

// rescan reads the journal again from the top after its lines moved
// (another process sealed, rekeyed or repaired it, keeping each record
// and its number): the view is what the file says, and rebased is the
// view as the file has it at the handle's old position, the base against
// which what others appended since is told apart (Commit). fn hears only
// the records numbered after that position.
func (j *Journal) rescan(fn func(Record)) (ScanResult, error) {
	after := j.pos.Seq
	j.reset()
	j.rebased = []string{}
	return j.scanFrom(func(r Record) {
		if r.Seq <= after {
			j.rebased = slices.Clone(j.view)
		} else if fn != nil {
			fn(r)
		}
	})
}

func (j *Journal) scanFrom(fn func(Record)) (ScanResult, error) {
	first, at := true, j.pos
	res, err := scan(j.path, j.pos, j.key, func(r Record) error {
		if first && j.placed && r.Seq != j.pos.Seq+1 {
			return errNotAtLine
		}
		first = false
		if fn != nil {
			defer fn(r)
		}
		switch r.Type {
		case TypeMessage:
			j.view = append(j.view, r.Hash)
			j.known[r.Hash] = struct{}{}
		case TypeRewrite:
			j.view = slices.Clone(r.Hashes)
		case TypeCheckpoints:
			j.cpsKnown = true
		}
		j.checkpoints.Apply(&r)
		return nil
	})
	if err == nil && first && j.placed && at.Offset > 0 && !endsRecord(j.path, j.key, at) {
		err = errNotAtLine // no record after OpenAt's position, which no longer ends the record it names
	}
	j.pos = Pos{Seq: res.Seq, Offset: res.End, Line: j.pos.Line + res.Lines}
	j.plain += res.Plain
	if res.file != nil {
		j.file = res.file
	}
	if err != nil {
		j.reset()
	}
	return res, err
}

// sameFile reports whether pos still counts in the file the lock holds
// (locked): the same inode, at least as long as what was read.
func (j *Journal) sameFile(locked os.FileInfo) bool {
	if j.file == nil {
		return j.pos.Offset == 0
	}
	return os.SameFile(j.file, locked) && locked.Size() >= j.pos.Offset
}

// Sync records the live history h: the messages the journal has not seen,
// and a rewrite record with reason when h is not the view extended by new
// messages. It returns the number of records appended (0 when h equals the
// view). Records that other processes appended meanwhile are read first;
// when another process replaced the file (sealed or rekeyed it), it is read
// again from the top.
//
// A conversation records through Commit, which also takes in what other
// processes appended; Sync records h as the whole truth.
func (j *Journal) Sync(h []message.Message, reason string) (int, error) {
	lock, locked, err := lockFile(j.path)
	if err != nil {
		return 0, err
	}
	defer lock.Unlock()
	if !j.sameFile(locked) {
		j.moved = true
	}
	if _, err := j.refresh(nil); err != nil {
		return 0, err
	}
	return j.record(h, HashHistory(h), reason)
}

// record appends what h holds that the view lacks (see Sync); the caller
// holds the lock and has read the file to its end.
func (j *Journal) record(h []message.Message, hashes []string, reason string) (int, error) {
	return j.recordWith(h, hashes, reason, nil)
}

// recordWith is record that also records the checkpoint list cps (a
// JSON array; nil: no list) when it differs from the journal's: as the
// one checkpoint added, on the last record of the batch, when that is
// what changed and the batch has a record; otherwise whole, in a
// checkpoints record.
func (j *Journal) recordWith(h []message.Message, hashes []string, reason string, cps json.RawMessage) (int, error) {
	common := 0 // hashes and the view agree up to here
	for common < len(hashes) && common < len(j.view) && hashes[common] == j.view[common] {
		common++
	}
	newCps := false
	var added json.RawMessage // the one checkpoint cps adds to the journal's list, if that is the change
	var kept int
	if cps != nil {
		same, cp, k, ok := j.checkpoints.change(cps)
		newCps = !same
		if ok && j.cpsKnown {
			added, kept = cp, k
		}
	}
	if common == len(hashes) && common == len(j.view) && !newCps {
		return 0, nil // an unknown list is recorded with the first change, not alone
	}
	newCps = newCps || cps != nil && !j.cpsKnown
	extends := common == len(j.view)
	var recs []Record
	at := j.now().UTC()
	for i := common; i < len(hashes); i++ {
		hsh := hashes[i]
		if _, ok := j.known[hsh]; ok {
			extends = false // a known message re-added: only a rewrite says where
			continue
		}
		recs = append(recs, Record{Type: TypeMessage, At: at, Hash: hsh, Message: &h[i]})
	}
	if !extends {
		recs = append(recs, Record{Type: TypeRewrite, At: at, Reason: reason, Hashes: slices.Clone(hashes), Prev: len(j.view)})
	}
	if newCps {
		if last := len(recs) - 1; last >= 0 && added != nil {
			recs[last].Checkpoint, recs[last].Kept = added, kept
		} else {
			recs = append(recs, Record{Type: TypeCheckpoints, At: at, Checkpoints: cps})
		}
	}
	for i := range recs {
		recs[i].Seq = j.pos.Seq + int64(i) + 1
	}
	var err error
	if !j.key.IsZero() && j.plain > 0 {
		err = j.sealPlainLines(recs)
	} else {
		err = j.append(recs)
	}
	if err != nil {
		j.unsure = true // the records may have landed: the next Commit does not add them again
	}
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return 0, err
	}
	for _, r := range recs {
		if r.Type == TypeMessage {
			j.known[r.Hash] = struct{}{}
		}
	}
	if extends {
		j.view = append(j.view, hashes[len(j.view):]...)
	} else {
		j.view = slices.Clone(hashes)
	}
	if newCps {
		j.checkpoints, j.cpsKnown = NewCheckpointList(slices.Clone(cps)), true
	}
	return len(recs), err // ErrNotDurable: written, not known to be durable
}

// writeFile writes an appended batch; a seam: tests make it fail part way.
var writeFile = (*os.File).Write

// syncFile makes an appended batch durable; EINVAL and ENOTSUP count as
// done (atomicfile.SyncFile). A seam: tests count the calls, or make them
// fail.
var syncFile = atomicfile.SyncFile

// append writes every record of recs with one write(2) of all their lines,
// then one fsync, so a turn's records (however many messages a first
// append of a long history holds) cost one write and one fsync. The caller
// holds the lock and has read the file to its end. A kill -9 during the
// write leaves a prefix of the batch: the records before the torn one are
// whole lines, and the reader skips the torn rest. A write that fails
// (ENOSPC, EIO) is cut back to the file's size before it.
func (j *Journal) append(recs []Record) error {
	if len(recs) == 0 {
		return nil
	}
	f, err := openAppend(j.path)
	if err != nil {
		return fmt.Errorf("journal: open %s: %w", j.path, err)
	}
	defer f.Close()
	torn, err := endsTorn(f)
	if err != nil {
		return err
	}
	lines := len(recs)
	var batch []byte
	if torn {
		lines++ // the torn line is now complete
		batch = append(batch, '\n')
	}
	for _, r := range recs {
		line, err := encodeLine(&r, j.key, j.id)
		if err != nil {
			return fmt.Errorf("journal: encode record: %w", err)
		}
		batch = append(batch, line...)
	}
	before, err := f.Stat()
	if err != nil {
		return fmt.Errorf("journal: stat %s: %w", j.path, err)
	}
	n, err := writeFile(f, batch)
	if err == nil && n != len(batch) {
		err = io.ErrShortWrite
	}
	if err != nil && n > 0 {
		// A write that failed part way (a full disk) is taken back, so
		// that the journal stays as it was instead of keeping a torn
		// record in its middle once the next append completes the line.
		if terr := f.Truncate(before.Size()); terr != nil {
			err = errors.Join(err, terr)
		}
	}
	if err == nil {
		err = syncFile(f)
	}
	if err != nil {
		return fmt.Errorf("journal: append to %s: %w", j.path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("journal: stat %s: %w", j.path, err)
	}
	j.pos, j.file = Pos{Seq: j.pos.Seq + int64(len(recs)), Offset: st.Size(), Line: j.pos.Line + lines}, st
	return nil
}

// endsTorn reports whether the file is non-empty and its last byte is not
// "\n".
func endsTorn(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	r, _, err := storefile.Open(f.Name()) // f is write-only
	if err != nil {
		return false, err
	}
	defer r.Close()
	var b [1]byte
	if _, err := r.ReadAt(b[:], st.Size()-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}
