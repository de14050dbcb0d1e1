package journal

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Warning describes one line the reader skipped.
type Warning struct {
	Path   string
	Line   int   // 1-based line number in the file
	Offset int64 // byte offset of the line's start
	// Reason is why: its String is the English text ("torn last line,
	// 12 bytes without a newline"), and an i18n.Printer says it in its
	// language.
	Reason i18n.Text
}

func (w Warning) String() string { return w.Said().String() }

// Said is the warning as a catalog text: "<path>:<line>: skipped a
// damaged line (<reason>)", the line number written as in the file.
func (w Warning) Said() i18n.Text {
	return i18n.Textf("%s: skipped a damaged line (%s)", w.Path+":"+strconv.Itoa(w.Line), w.Reason)
}

// ScanResult summarises a read.
type ScanResult struct {
	// End is the offset just past the last complete line ("\n"-terminated)
	// that was read; a later read can continue from it. Seq is the number
	// of the last record read (the start's when none was).
	End int64
	Seq int64
	// Lines is the number of complete lines read, skipped ones included;
	// Records the number accepted.
	Lines, Records int
	// Sealed and Plain count the non-empty lines read in each form.
	Sealed, Plain int
	Warnings      []Warning

	file os.FileInfo // the file read (nil when missing)
}

// Pos is a position in a journal, just past a record: Seq is the sequence
// number of the record before it (0 at the top), Offset the byte offset
// just past that record's line, Line the 1-based number of the line that
// starts there. Records are numbered from 1 in file order: each carries
// its number ("seq"), and one written without it (by an older version)
// takes the number after the record before it. Seq is what a position
// means; Offset and Line are where it was last seen, a hint, since sealing
// or rekeying a journal rewrites its lines (keeping their records and
// numbers) and moves them.
type Pos struct {
	Seq    int64 `json:"seq"`
	Offset int64 `json:"offset"`
	Line   int   `json:"line"`
}

// top is the position before the first record.
var top = Pos{Line: 1}

// scan reads the journal at path from pos and calls fn for every record
// it accepts, in file order. Damaged lines (torn last line, NUL bytes, not
// JSON, not a record) are skipped and reported as warnings; reading goes on
// after them. A missing file is an empty journal. Only I/O errors and fn's
// errors are returned.
//
// Sealed lines are opened with key for the journal's id (lineOpener): with
// the zero Key they fail the scan (ErrEncrypted); when none opens, the scan
// fails with an error wrapping seal.ErrWrongKey; a single one that does
// not open among others that do is a damaged line.
func scan(path string, pos Pos, key seal.Key, fn func(Record) error) (ScanResult, error) {
	o := &lineOpener{key: key, path: path, name: LineName(idOf(path))}
	res, err := scanLines(path, pos, o, fn)
	if pos.Offset > 0 { // the lines before pos count too
		o.countTop()
	}
	if err == nil {
		err = o.verdict()
	}
	return res, err
}

func scanLines(path string, pos Pos, o *lineOpener, fn func(Record) error) (ScanResult, error) {
	res := ScanResult{End: pos.Offset, Seq: pos.Seq}
	f, st, err := storefile.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, i18n.Errorf("journal: open %s: %w", path, err)
	}
	defer f.Close()
	res.file = st
	if pos.Offset > 0 {
		var b [1]byte
		if _, err := f.ReadAt(b[:], pos.Offset-1); err != nil || b[0] != '\n' {
			return res, errNotAtLine
		}
	}
	if _, err := f.Seek(pos.Offset, io.SeekStart); err != nil {
		return res, i18n.Errorf("journal: seek %s: %w", path, err)
	}
	return scanStream(io.LimitReader(f, st.Size()-pos.Offset), path, pos, o, fn, res) // never past the size seen
}

// scanStream is scanLines' loop over the lines of r, the journal at path
// from pos on: it reads no file of its own (a fuzz target feeds it bytes
// from memory), and adds to res what it reads.
func scanStream(in io.Reader, path string, pos Pos, o *lineOpener, fn func(Record) error, res ScanResult) (ScanResult, error) {
	r := bufio.NewReaderSize(in, 64<<10)
	off, lineNo := pos.Offset, pos.Line-1
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return res, nil
		}
		if err != nil && err != io.EOF {
			return res, i18n.Errorf("journal: read %s at byte %d: %w", path, off, err)
		}
		lineNo++
		start := off
		off += int64(len(line))
		complete := err == nil
		if complete {
			res.End = off
			res.Lines++
			line = line[:len(line)-1]
		}
		if complete && len(line) == 0 { // never written by chatcli: a stray line
			res.Warnings = append(res.Warnings, Warning{Path: path, Line: lineNo, Offset: start, Reason: reasonEmptyLine})
			continue
		}
		switch sealed := seal.IsSealedLine(line); {
		case sealed && complete:
			res.Sealed++
		case !sealed:
			res.Plain++
		}
		rec, reason := o.readLine(line, complete)
		if reason.IsZero() || rec.Type != "" {
			if !complete {
				res.End = off // a whole record missing only its newline
			}
			res.Records++
			if rec.Seq <= 0 {
				rec.Seq = res.Seq + 1
			}
			res.Seq = rec.Seq
			o.before = Pos{Seq: rec.Seq - 1, Offset: start, Line: lineNo}
			if err := fn(rec); err != nil {
				return res, err
			}
		}
		if reason.IsZero() {
			continue
		}
		res.Warnings = append(res.Warnings, Warning{Path: path, Line: lineNo, Offset: start, Reason: reason})
		if !complete {
			return res, nil
		}
	}
}

// startsPlain reports whether the journal at path starts with a plaintext
// record ('{'): chatcli seals a journal whole, so its first line says
// which form a scan from the middle of it is in.
func startsPlain(path string) bool {
	f, _, err := storefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [1]byte
	_, err = f.ReadAt(b[:], 0)
	return err == nil && b[0] == '{'
}

// countTop counts in o, for verdict, the first line of its journal when
// a scan started after it: a plaintext record, or a sealed line opening
// with o's key (read only when no line the scan read opened). A damaged
// line alone after the position is then a damaged line, as it is to a
// scan from the top.
func (o *lineOpener) countTop() {
	if startsPlain(o.path) {
		o.plain++
		return
	}
	if o.opened > 0 || o.fail == 0 || o.key.IsZero() {
		return
	}
	f, st, err := storefile.Open(o.path)
	if err != nil {
		return
	}
	defer f.Close()
	line, err := bufio.NewReader(storefile.Reader(f, st)).ReadBytes('\n')
	if err != nil || !seal.IsSealedLine(line[:len(line)-1]) {
		return
	}
	if _, err := seal.OpenLine(o.key, o.name, line[:len(line)-1]); err == nil {
		o.opened++
	}
}

// reasonEmptyLine is the Warning.Reason of an empty line: chatcli never
// writes one, so it is a stray line, skipped and counted like the others.
var reasonEmptyLine = i18n.Textf("empty line")

// errNotAtLine is returned by a scan from an offset that does not start a
// line (the journal was rewritten since the offset was taken).
var errNotAtLine = errors.New("journal: position is not at the start of a line")

// ReadAfter returns the records of the journal at path after position
// pos (those numbered above pos.Seq), in file order, and the position
// after the last one (see ScanAfter).
func ReadAfter(path string, key seal.Key, pos Pos) ([]Record, Pos, []Warning, error) {
	var recs []Record
	end, warnings, err := ScanAfter(path, key, pos, func(r Record, _ Pos) error {
		recs = append(recs, r)
		return nil
	})
	return recs, end, warnings, err
}

// readLine reads one line (without its "\n"; complete when it had one),
// opening it with o when it is sealed. It returns the record (Type "" when
// none) and why the line, or part of it, was skipped (the zero Text when
// it was not); what it met is counted in o for verdict.
func (o *lineOpener) readLine(line []byte, complete bool) (Record, i18n.Text) {
	switch {
	case seal.IsSealedLine(line) && complete:
		pt, why := o.open(line)
		if pt == nil {
			return Record{}, why
		}
		return decodeLine(pt, true)
	case seal.IsSealedLine(line):
		if o.key.IsZero() {
			o.unkeyed++
		}
		return Record{}, tornLine(len(line))
	}
	rec, reason := decodeLine(line, complete)
	if rec.Type != "" {
		o.plain++
	}
	return rec, reason
}

// decodeLine decodes one line. It returns the record (Type "" when none)
// and why the line, or part of it, was skipped (the zero Text when it was
// not). A
// record preceded on its line by NUL bytes (a block of zeros whose newline
// was lost) is still read, with a warning for the NULs; a last line that
// is a whole record without its newline is read too. A record whose
// checksum does not match (ErrChecksum) is skipped as "checksum mismatch",
// wherever it is.
func decodeLine(line []byte, complete bool) (Record, i18n.Text) {
	if i := bytes.LastIndexByte(line, 0); i >= 0 {
		rest := bytes.TrimLeft(line[i+1:], "\x00")
		if len(bytes.Trim(line, "\x00")) == 0 {
			return Record{}, i18n.Textf("%d NUL bytes", len(line))
		}
		rec, err := DecodeRecord(rest)
		var bad *checksumError
		if errors.As(err, &bad) {
			return Record{}, i18n.Textf("%d NUL bytes before a record, then %s", i+1, bad.reason())
		}
		if err != nil {
			return Record{}, i18n.Textf("NUL bytes inside the line")
		}
		return rec, i18n.Textf("%d NUL bytes before a record", i+1)
	}
	rec, err := DecodeRecord(line)
	var bad *checksumError
	switch {
	case errors.As(err, &bad):
		return Record{}, bad.reason()
	case err != nil && !complete:
		return Record{}, tornLine(len(line))
	case err != nil:
		return Record{}, i18n.Textf("%s", err)
	}
	return rec, i18n.Text{}
}

// tornLine is the reason of a last line of n bytes that is not a whole
// record and has no newline.
func tornLine(n int) i18n.Text {
	return i18n.Textf("torn last line, %d bytes without a newline", n)
}

// ReadAll reads every record of the journal at path (see scan), opening
// sealed lines with key.
func ReadAll(path string, key seal.Key) ([]Record, ScanResult, error) {
	var recs []Record
	res, err := scan(path, top, key, func(r Record) error {
		recs = append(recs, r)
		return nil
	})
	return recs, res, err
}

// Messages returns the message and hash of every message record of the
// journal at path, in file order: everything the conversation ever held,
// including messages a compaction or rewind later removed from the live
// history; and the warnings about damaged lines it skipped. Sealed lines
// are opened with key (see scan).
func Messages(path string, key seal.Key) ([]message.Message, []string, []Warning, error) {
	var out []message.Message
	var hashes []string
	res, err := scan(path, top, key, func(r Record) error {
		if r.Type == TypeMessage {
			out = append(out, *r.Message)
			hashes = append(hashes, r.Hash)
		}
		return nil
	})
	return out, hashes, res.Warnings, err
}

// Prefix names a history by its length and digest (DigestOf), as a
// checkpoint does.
type Prefix struct {
	Messages int
	Digest   string // 32 hex digits
}

// Resolve returns, for each prefix of want, the history it names: the
// first Messages messages of a view the journal at path held (at any
// record) whose digest there is Digest; nil for a prefix no view held or
// whose messages the journal lost (damaged lines). The journal is read
// twice: first keeping only the hash list of the current view and of the
// histories found, then only the messages those name, so memory is
// bounded by the histories asked for, not by everything the journal ever
// recorded. Sealed lines are opened with key (see scan).
func Resolve(path string, key seal.Key, want []Prefix) ([][]message.Message, error) {
	found := make([][]string, len(want))
	targets := make([][DigestBytes]byte, len(want))
	left := 0
	for i, w := range want {
		if targets[i] = decodeHash(w.Digest); w.Messages == 0 {
			found[i] = []string{}
		} else {
			left++
		}
	}
	var v viewChain
	_, err := scan(path, top, key, func(r Record) error {
		if left == 0 || !v.apply(r) {
			return nil
		}
		for i, w := range want {
			if found[i] == nil && w.Messages <= len(v.view) && v.digest(w.Messages) == targets[i] {
				found[i], left = slices.Clone(v.view[:w.Messages]), left-1
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return MessagesOf(path, key, found...)
}

// LastRewrite returns, for the last rewrite record of the journal at path
// with the given reason, the view just before it and the hashes it set;
// both nil when there is none. Only hash lists are kept while reading.
func LastRewrite(path, reason string, key seal.Key) (before, after []string, err error) {
	var view []string
	_, err = scan(path, top, key, func(r Record) error {
		switch r.Type {
		case TypeMessage:
			view = append(view, r.Hash)
		case TypeRewrite:
			if r.Reason == reason && r.Prev <= len(view) {
				before, after = slices.Clone(view[:r.Prev]), r.Hashes
			}
			view = slices.Clone(r.Hashes)
		}
		return nil
	})
	return before, after, err
}

// messagesByHash returns the message of each hash of want the journal at
// path holds (the first record of each).
func messagesByHash(path string, key seal.Key, want []string) (map[string]*message.Message, error) {
	need := make(map[string]*message.Message, len(want))
	for _, h := range want {
		need[h] = nil
	}
	if len(need) == 0 {
		return need, nil
	}
	_, err := scan(path, top, key, func(r Record) error {
		if m, ok := need[r.Hash]; r.Type == TypeMessage && ok && m == nil {
			need[r.Hash] = r.Message
		}
		return nil
	})
	return need, err
}

// MessagesOf returns the messages the hash lists name, list by list and in
// order, read from the message records of the journal at path; a nil list,
// or one naming a message the journal does not hold, gives nil. Only the
// messages named are kept while reading.
func MessagesOf(path string, key seal.Key, lists ...[]string) ([][]message.Message, error) {
	need, err := messagesByHash(path, key, slices.Concat(lists...))
	if err != nil {
		return nil, err
	}
	out := make([][]message.Message, len(lists))
	for i, l := range lists {
		if l == nil {
			continue
		}
		h := make([]message.Message, 0, len(l))
		for _, hsh := range l {
			m := need[hsh]
			if m == nil {
				h = nil
				break
			}
			h = append(h, *m)
		}
		out[i] = h
	}
	return out, nil
}

// viewChain is a journal's view while it is replayed, with the digest of
// each of its prefixes (DigestOf).
type viewChain struct {
	view  []string
	chain [][DigestBytes]byte // chain[i]: digest of view[:i+1]
}

// apply replays one record and says whether the view changed.
func (v *viewChain) apply(r Record) bool {
	switch r.Type {
	case TypeMessage:
		v.add(r.Hash)
	case TypeRewrite:
		p := 0
		for p < len(r.Hashes) && p < len(v.view) && r.Hashes[p] == v.view[p] {
			p++
		}
		v.view, v.chain = v.view[:p], v.chain[:p]
		for _, h := range r.Hashes[p:] {
			v.add(h)
		}
	default:
		return false
	}
	return true
}

func (v *viewChain) add(h string) {
	v.chain = append(v.chain, chainNext(v.digest(len(v.view)), decodeHash(h)))
	v.view = append(v.view, h)
}

func (v *viewChain) digest(n int) [DigestBytes]byte {
	if n == 0 {
		return [DigestBytes]byte{}
	}
	return v.chain[n-1]
}
