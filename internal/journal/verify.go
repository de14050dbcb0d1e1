// Checking and repairing whole journals (chatcli storage verify).

package journal

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// BrokenSuffix ends the name of the copy Repair keeps of a damaged journal:
// <id>.jsonl.broken, then <id>.jsonl.broken-1, -2, … when that exists.
const BrokenSuffix = ".broken"

// maxBrokenCopies bounds the copies Repair keeps of one journal.
const maxBrokenCopies = 1000

// Verify reads the whole journal at path as every reader does, opening
// sealed lines with key, and returns what it found: the lines and records
// read, and a Warning for each damaged line (none when the journal is
// sound). It holds the journal's lock while it reads, so a batch being
// appended is never taken for a torn last line. A missing file is an empty,
// sound journal. Errors name the file: I/O errors, ErrEncrypted (sealed
// lines and the zero key), and one wrapping seal.ErrWrongKey when none of
// its sealed lines opens with key.
func Verify(path string, key seal.Key) (ScanResult, error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return ScanResult{}, nil
	}
	lock, _, err := lockFile(path)
	if err != nil {
		return ScanResult{}, err
	}
	defer lock.Unlock()
	return scan(path, top, key, func(Record) error { return nil })
}

// Repaired is what Repair found in one journal and did to it.
type Repaired struct {
	// Broken is the copy of the journal as it was, byte for byte
	// (<path>.broken, or <path>.broken-<n> when that exists); "" when the
	// journal was sound and left as it is.
	Broken string
	// Damaged are its damaged lines, as Verify reports them.
	Damaged []Warning
	// Records is the number of records the journal holds now.
	Records int
}

// Repair sets a damaged journal aside and rewrites it clean, the way
// etcd's WAL repair keeps the damaged file as <name>.broken before cutting
// it. Under the journal's lock it reads the file at path (sealed lines
// opened with key); when a line is damaged, it copies the file durably to
// Repaired.Broken (atomicfile.CreateFile: an existing copy is never
// replaced), then replaces the journal in one atomic replacement
// (atomicfile.WriteFile) with the lines of the records that read back, in
// order and byte for byte: sealed lines stay sealed and plaintext lines
// plaintext; a record read after NUL bytes keeps its own bytes without
// them (sealed again when its line was sealed); a last record missing its
// newline gets one. Damaged and empty lines are left out, so reading the
// new file gives no warnings. A sound or missing journal is left as it is.
//
// Errors name the file. Those of Verify leave the file unchanged: without
// the key that seals its lines nothing is repaired. When the copy or the
// replacement fails the journal is left as it was; a copy already made
// stays, and Repaired.Broken names it.
func Repair(path string, key seal.Key) (Repaired, error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return Repaired{}, nil
	}
	lock, _, err := lockFile(path)
	if err != nil {
		return Repaired{}, err
	}
	defer lock.Unlock()
	data, err := storefile.ReadFile(path)
	if err != nil {
		return Repaired{}, i18n.Errorf("journal: read %s: %w", path, err)
	}
	o := &lineOpener{key: key, path: path, name: LineName(idOf(path))}
	clean, res, err := cleanLines(path, data, o)
	if err == nil {
		err = o.verdict()
	}
	if err != nil || len(res.Damaged) == 0 {
		return res, err
	}
	if res.Broken, err = keepBroken(path, bytes.NewReader(data), int64(len(data))); err != nil {
		return res, err
	}
	if err := atomicfile.WriteFile(path, clean); err != nil {
		return res, i18n.Errorf("journal: rewrite %s (the journal as it was is also in %s): %w", path, res.Broken, err)
	}
	return res, nil
}

// cleanLines reads data, the whole journal at path, line by line as scan
// does, and returns the lines of the records that read back (each ending
// in "\n"), with the count of those records and the damaged lines.
func cleanLines(path string, data []byte, o *lineOpener) ([]byte, Repaired, error) {
	var res Repaired
	out := make([]byte, 0, len(data))
	var off int64
	for n := 1; len(data) > 0; n++ {
		line, rest, complete := bytes.Cut(data, []byte("\n"))
		start := off
		off += int64(len(line) + btoi(complete))
		data = rest
		if len(line) == 0 {
			if complete {
				res.Damaged = append(res.Damaged, Warning{Path: path, Line: n, Offset: start, Reason: reasonEmptyLine})
			}
			continue
		}
		rec, reason := o.readLine(line, complete)
		if !reason.IsZero() {
			res.Damaged = append(res.Damaged, Warning{Path: path, Line: n, Offset: start, Reason: reason})
		}
		if rec.Type == "" {
			continue
		}
		if !reason.IsZero() { // a record after NUL bytes (decodeLine)
			var err error
			if line, err = o.afterNULs(line); err != nil {
				return nil, res, i18n.Errorf("journal: seal %s line %d: %w", path, n, err)
			}
		}
		res.Records++
		out = append(append(out, line...), '\n')
	}
	return out, res, nil
}

// afterNULs returns line, whose record decodeLine read after NUL bytes,
// as the record's own bytes: the plaintext after the last NUL, sealed
// again when line is a sealed line (it opened in readLine).
func (o *lineOpener) afterNULs(line []byte) ([]byte, error) {
	if !seal.IsSealedLine(line) {
		return line[bytes.LastIndexByte(line, 0)+1:], nil
	}
	pt, err := seal.OpenLine(o.key, o.name, line)
	if err != nil {
		return nil, err
	}
	return seal.SealLine(o.key, o.name, pt[bytes.LastIndexByte(pt, 0)+1:])
}

// keepBroken copies the size bytes of data, the journal at path as it
// was, durably to the first of <path>.broken, <path>.broken-1,
// <path>.broken-2, … that does not exist, and returns that path.
func keepBroken(path string, data io.ReaderAt, size int64) (string, error) {
	for n := range maxBrokenCopies {
		p := path + BrokenSuffix
		if n > 0 {
			p += "-" + strconv.Itoa(n)
		}
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		err := atomicfile.CreateWith(p, func(w io.Writer) error { _, err := io.Copy(w, io.NewSectionReader(data, 0, size)); return err })
		if errors.Is(err, os.ErrExist) {
			continue // made meanwhile
		}
		if err != nil {
			return "", i18n.Errorf("journal: keep a copy of %s as %s: %w", path, p, err)
		}
		return p, nil
	}
	return "", i18n.Errorf("journal: keep a copy of %s: %s%s and -1 to -%d all exist", path, path, BrokenSuffix, maxBrokenCopies-1)
}
