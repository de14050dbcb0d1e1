package journal

import (
	"errors"
	"fmt"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
)

// ScanAfter calls fn with every record of the journal at path after
// position pos (those numbered above pos.Seq), in file order, and the
// position just before it (where its line starts: RecordAt reads it back).
// It reads from pos.Offset when the record found there is the one numbered
// pos.Seq+1, or, when no record follows pos.Offset, when the line ending
// there holds the record numbered pos.Seq (endsRecord), and otherwise
// (the journal was sealed, rekeyed or repaired since: its lines moved)
// from the top, skipping the records up to pos.Seq. It returns the position after the last record (pos when the
// journal is shorter than pos) and warnings naming the damaged lines it
// skipped. Sealed lines are opened with key (see scan); fn's errors stop
// the scan and are returned.
func ScanAfter(path string, key seal.Key, pos Pos, fn func(r Record, before Pos) error) (Pos, []Warning, error) {
	if pos.Line < 1 {
		pos.Line = 1
	}
	line, first := pos.Line, true
	var o *lineOpener
	opener := func() *lineOpener {
		o = &lineOpener{key: key, path: path, name: LineName(idOf(path))}
		return o
	}
	res, err := scanLines(path, pos, opener(), func(r Record) error {
		if first && r.Seq != pos.Seq+1 {
			return errNotAtLine
		}
		first = false
		return fn(r, o.before)
	})
	if err == nil && first && pos.Offset > 0 && !endsRecord(path, key, pos) {
		err = errNotAtLine // no record after pos, and pos no longer ends the record it names
	}
	if errors.Is(err, errNotAtLine) {
		line = 1
		res, err = scanLines(path, top, opener(), func(r Record) error {
			if r.Seq > pos.Seq {
				return fn(r, o.before)
			}
			return nil
		})
	}
	if line > 1 { // the lines before pos count too (scan's rule)
		o.countTop()
	}
	if err == nil {
		err = o.verdict()
	}
	end := Pos{Seq: res.Seq, Offset: res.End, Line: line + res.Lines}
	if err == nil && res.Seq < pos.Seq {
		end = pos
	}
	return end, res.Warnings, err
}

// errFound stops RecordAt's scan at the record it wants.
var errFound = errors.New("journal: record found")

// RecordAt returns the record numbered before.Seq+1 of the journal at
// path, reading the line at before.Offset when that record is still there
// (before is what ScanAfter passed with it) and otherwise scanning from the
// top. It returns an error wrapping ErrCorrupt when the journal holds no
// such record (it was shortened or replaced).
func RecordAt(path string, key seal.Key, before Pos) (Record, error) {
	var rec Record
	_, _, err := ScanAfter(path, key, before, func(r Record, _ Pos) error {
		rec = r
		return errFound
	})
	switch {
	case errors.Is(err, errFound):
		return rec, nil
	case err != nil:
		return Record{}, err
	}
	return Record{}, i18n.Errorf("%w: %s has no record %d", ErrCorrupt, path, before.Seq+1)
}

// Place returns pos as the journal at path has it now: the position just
// after the record numbered pos.Seq, with the byte offset and line where
// that record's line now ends (before the line of the record after it,
// stray lines between them included). pos is returned as it is when its
// offset still starts the record numbered after it; otherwise (the lines
// moved: the journal was sealed, rekeyed, decrypted or repaired since)
// the journal is read from its top. A session file's journal_pos is
// placed so after such a change, so that its offset again starts the
// record after it. When the journal holds no record numbered pos.Seq or
// later (a repair left the last records out, or the journal is missing or
// empty), pos is returned as it is, with an error wrapping ErrPosLost.
// Other errors: a journal that cannot be read, or whose sealed lines key
// does not open (see scan).
func Place(path string, key seal.Key, pos Pos) (Pos, error) {
	opener := func() *lineOpener { return &lineOpener{key: key, path: path, name: LineName(idOf(path))} }
	if pos.Offset > 0 && pos.Line > 1 {
		still := false // any error: the scan from the top decides
		scanLines(path, pos, opener(), func(r Record) error {
			still = r.Seq == pos.Seq+1
			return errFound
		})
		if still {
			return pos, nil
		}
	}
	o := opener()
	placed, found := pos, false
	res, err := scanLines(path, top, o, func(r Record) error {
		if r.Seq <= pos.Seq {
			return nil
		}
		placed, found = Pos{Seq: pos.Seq, Offset: o.before.Offset, Line: o.before.Line}, true
		return errFound
	})
	switch {
	case found:
		return placed, nil
	case err != nil:
		return pos, err
	}
	if err := o.verdict(); err != nil {
		return pos, err
	}
	if res.Seq != pos.Seq {
		return pos, fmt.Errorf("%w: %s holds no record %d", ErrPosLost, path, pos.Seq)
	}
	return Pos{Seq: pos.Seq, Offset: res.End, Line: 1 + res.Lines}, nil
}

// ErrPosLost is wrapped by Place's error for a position after a record
// the journal no longer holds: records appended to it are numbered from
// its last record on, so a reader skipping the records up to the position
// would skip them too.
var ErrPosLost = errors.New("journal: the record before the position is gone")
