package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Fork copies journal srcID under dir into a new journal with a fresh id
// (durably, atomicfile.CreateWith) and returns the id. A missing source
// gives an empty new journal. The copy streams line by line: its memory is
// the longest line, not the journal. The lines there when the copy starts
// are read without the lock (a journal's lines never change once written:
// a rewrite of the file replaces it, on another inode); the lock is taken
// only to copy what was appended meanwhile, so writers of the source wait
// for that tail alone.
//
// Only lines that hold a record are copied, verbatim and in order, so a
// fork starts clean: damage stays in the file a crash touched, and each
// line left out (torn by a crash, rotten, not a record) is named by a
// warning. With key set every line of the copy is sealed for the new id;
// sealed lines of the source need the key (ErrEncrypted without one;
// seal.ErrWrongKey when none of them opens), and one that does not open
// among others that do is left out with a warning.
func Fork(dir, srcID string, key seal.Key) (string, []Warning, error) {
	if !ValidID(srcID) {
		return "", nil, fmt.Errorf("journal: invalid id %q", srcID)
	}
	src := Path(dir, srcID)
	id := NewID()
	st, err := os.Lstat(src)
	if os.IsNotExist(err) || err == nil && st.Size() == 0 {
		return id, nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("journal: read %s: %w", src, err)
	}
	c, err := forkOnce(dir, srcID, id, key, false)
	if errors.Is(err, errReplaced) { // sealed, rekeyed or repaired meanwhile: copy it whole, locked
		c, err = forkOnce(dir, srcID, id, key, true)
	}
	switch {
	case err == nil:
		return id, c.dropped, nil
	case errors.Is(err, atomicfile.ErrNotDurable): // the copy is there
		return id, c.dropped, fmt.Errorf("journal: fork %s: %w", srcID, err)
	}
	return "", nil, fmt.Errorf("journal: fork %s: %w", srcID, err)
}

// errReplaced stops a copy whose source was replaced while it was read
// without the lock.
var errReplaced = errors.New("journal: replaced during the copy")

// forkOnce copies journal srcID into the new journal id: without the lock
// up to the size seen at the start and then the rest under it, or, with
// lockFirst, all of it under the lock. A copy without the lock whose
// source was replaced meanwhile creates nothing and fails with
// errReplaced.
func forkOnce(dir, srcID, id string, key seal.Key, lockFirst bool) (*forkCopy, error) {
	src := Path(dir, srcID)
	c := &forkCopy{src: src,
		r: resealer{path: src, k: key, old: key, from: LineName(srcID), to: LineName(id)},
		o: lineOpener{key: key, path: src, name: LineName(id)}}
	var copyErr error // the copy's own error, said without the temporary file's name
	err := atomicfile.CreateWith(Path(dir, id), func(w io.Writer) error { copyErr = c.run(w, lockFirst); return copyErr })
	if copyErr != nil {
		err = copyErr
	}
	return c, err
}

// afterUnlockedCopy runs between Fork's copy without the lock and its
// taking the lock (a seam: tests append to or replace the source there).
var afterUnlockedCopy = func() {}

// forkCopy is one Fork's copy: where it reads, how it re-seals and checks
// each line, and what it has seen.
type forkCopy struct {
	src string
	f   *os.File
	r   resealer
	o   lineOpener

	line           int   // lines read
	off            int64 // offset of the next line
	opened, failed int   // sealed lines that opened, that did not
	plain          int   // plaintext lines holding a record
	dropped        []Warning
}

// run copies the source to w (see forkOnce).
func (c *forkCopy) run(w io.Writer, lockFirst bool) error {
	f, st, err := storefile.Open(c.src)
	if err != nil {
		return err
	}
	defer f.Close()
	c.f = f
	bw := bufio.NewWriterSize(w, 256<<10)
	if !lockFirst {
		if err := c.lines(bw, st.Size(), false); err != nil {
			return err
		}
		afterUnlockedCopy()
	}
	lock, locked, err := lockFile(c.src)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if !os.SameFile(st, locked) {
		if !lockFirst {
			return errReplaced
		}
		if f, _, err = storefile.Open(c.src); err != nil { // the file the lock holds
			return err
		}
		defer f.Close()
		c.f = f
	}
	if err := c.lines(bw, -1, true); err != nil {
		return err
	}
	v := lineOpener{key: c.o.key, path: c.src, opened: c.opened, plain: c.plain} // the reader's rule
	if v.key.IsZero() {
		v.unkeyed = c.failed
	} else {
		v.fail = c.failed
	}
	if err := v.verdict(); err != nil {
		return err
	}
	return bw.Flush()
}

// lines copies the lines from c.off up to offset end (-1: the end of the
// file) to w. Before the end of the file (last false) a last line without
// its newline is not read: it may be an append in progress, copied under
// the lock with what follows.
func (c *forkCopy) lines(w io.Writer, end int64, last bool) error {
	var r io.Reader = io.NewSectionReader(c.f, c.off, 1<<62)
	if end >= 0 {
		r = io.NewSectionReader(c.f, c.off, end-c.off)
	}
	br := bufio.NewReaderSize(r, 256<<10)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("journal: read %s: %w", c.src, err)
		}
		complete := bytes.HasSuffix(line, []byte("\n"))
		if len(line) == 0 || !complete && !last {
			return nil
		}
		if err := c.copyLine(w, bytes.TrimSuffix(line, []byte("\n")), complete); err != nil {
			return err
		}
		if err == io.EOF {
			return nil
		}
	}
}

// copyLine re-seals one line of the source for the copy (when a key is
// set or the line is sealed) and writes it when it holds a record.
func (c *forkCopy) copyLine(w io.Writer, line []byte, complete bool) error {
	c.line++
	start := c.off
	c.off += int64(len(line)) + 1
	if len(line) == 0 {
		return nil
	}
	sealed := seal.IsSealedLine(line)
	if !c.r.k.IsZero() || sealed {
		nl, why, err := c.r.line(line)
		if err != nil {
			return err
		}
		if !why.IsZero() {
			if complete {
				c.failed++
			}
			c.dropped = append(c.dropped, Warning{Path: c.src, Line: c.line, Offset: start, Reason: why})
			return nil
		}
		if sealed {
			c.opened++
		}
		line = nl
	}
	rec, reason := c.o.readLine(line, complete)
	if !sealed && rec.Type != "" {
		c.plain++
	}
	if !reason.IsZero() {
		c.dropped = append(c.dropped, Warning{Path: c.src, Line: c.line, Offset: start, Reason: reason})
		if rec.Type == "" {
			return nil
		}
		line = line[bytes.LastIndexByte(line, 0)+1:] // a record after NUL bytes: the record is kept
	}
	if _, err := w.Write(line); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}
