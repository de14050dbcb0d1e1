package session

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// writtenAttr is the extended attribute (user namespace) by which a
// session file says that this store wrote it and that it has not changed
// since. Each plaintext write sets it on the file just written to the
// file's size and modification time as the write left them, and the
// file's ctime as fstat shows it just before the attribute is set, in
// decimal ASCII:
//
//	<size in bytes> <mtime in nanoseconds since the Unix epoch> <ctime in nanoseconds>
//
// (the ctime is left out where the system does not report it, and the
// marks of earlier builds have none: those are trusted by size and mtime
// alone). A change
// of the file's bytes changes its mtime, and a file put in its place is
// another inode, without the attribute; setting an attribute changes
// neither size nor mtime. The ctime cannot be set back by a program, but
// setting the attribute moves it: a mark is trusted while the file's
// ctime lies within markSlack after the one it records, so an edit in
// place that restores the size and the exact mtime, made later than that,
// is seen too. So a file whose attribute still matches its fstat is
// trusted as chatcli wrote it, and List reads only its header block (the
// fast path, checkedHeader). Any other file in chatcli's layout (edited by
// hand or by another program, copied, or written by a build before the
// attribute) is read whole by List and Stat, as files in other layouts
// are; when that read finds it sound and its header block saying what the
// whole read did, the store marks it then (markChecked), so it is read
// whole once, not once per lost list index. A move of the store's own
// (rename, trash, restore) moves the ctime too, and sets the mark again
// (moveKeepingMark). Either verdict is also kept in the list index under the
// file's stamp (listindex.go), which then answers without a read. Where
// the file system keeps no user attributes, or the system has none
// (attrs_other.go), every file is such a file: listing stays right, and a
// changed file costs one whole read.
const writtenAttr = "user.chatcli.written"

// writtenValueBytes bounds the attribute's value: three decimal int64s
// and two spaces.
const writtenValueBytes = 3*20 + 2

// markSlack is how far past the ctime a mark records the file's ctime may
// lie for the mark to be trusted: the attribute's own setting moves the
// ctime by the time between the fstat and the set (a clock tick, or a
// process preempted in between; a mark found late is only read past and
// set again). A variable: tests shorten it.
var markSlack = time.Second

// appendWritten appends the attribute value for the file whose fstat is
// st to b.
func appendWritten(b []byte, st fs.FileInfo) []byte {
	b = appendSizeMtime(b, st)
	if _, ctime := inodeChange(st); ctime != 0 {
		b = append(b, ' ')
		b = strconv.AppendInt(b, ctime, 10)
	}
	return b
}

// appendSizeMtime appends "<size> <mtime ns>" of st to b: the value up to
// the ctime.
func appendSizeMtime(b []byte, st fs.FileInfo) []byte {
	b = strconv.AppendInt(b, st.Size(), 10)
	b = append(b, ' ')
	return strconv.AppendInt(b, st.ModTime().UnixNano(), 10)
}

// markWritten sets writtenAttr on the file at p when it is still the file
// this store just wrote there, which info describes (the temporary file's
// stat before its rename: the same inode, size and mtime). When info is
// nil (a write that does not report it), the file must have size bytes
// and an mtime no earlier than since. Failures are ignored: an unmarked
// file is only read whole by the next listing.
func markWritten(p string, info fs.FileInfo, size int64, since time.Time) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return
	}
	defer f.Close()
	if info != nil && (!os.SameFile(st, info) || st.Size() != info.Size() || !st.ModTime().Equal(info.ModTime())) {
		return // replaced since the rename: not the file written
	}
	if info == nil && (st.Size() != size || st.ModTime().Before(since)) {
		return
	}
	var buf [writtenValueBytes]byte
	_ = setAttr(f, writtenAttr, appendWritten(buf[:0], st))
}

// moveKeepingMark is atomicfile.Move of a file of the store from from to
// to, with its errors: when the file carries a mark the store trusts, the
// mark is set again once the file has moved (the same inode), since the
// move moves the file's ctime past the one the mark records.
func moveKeepingMark(from, to string) error {
	var st fs.FileInfo
	if f, fst, err := storefile.Open(from); err == nil {
		if writtenHere(f, fst) {
			st = fst
		}
		f.Close()
	}
	err := atomicfile.Move(from, to)
	if st != nil && (err == nil || errors.Is(err, atomicfile.ErrNotDurable)) {
		markWritten(to, st, 0, time.Time{})
	}
	return err
}

// writtenHere reports whether the open file f, whose fstat is st, carries
// a writtenAttr equal to its size and mtime, recording a ctime at most
// markSlack before st's (or none, in the marks of earlier builds): a
// file this store wrote and nothing changed since.
func writtenHere(f *os.File, st fs.FileInfo) bool {
	var got, want [writtenValueBytes]byte
	n, ok := getAttr(f, writtenAttr, got[:])
	if !ok {
		return false
	}
	prefix := appendSizeMtime(want[:0], st)
	if string(got[:n]) == string(prefix) {
		return true // an earlier build's mark, or a system's without the ctime
	}
	if n <= len(prefix) || string(got[:len(prefix)]) != string(prefix) || got[len(prefix)] != ' ' {
		return false
	}
	marked, err := strconv.ParseInt(string(got[len(prefix)+1:n]), 10, 64)
	_, ctime := inodeChange(st)
	return err == nil && ctime != 0 && withinSlack(marked, ctime)
}

// withinSlack reports whether ctime, a file's status-change time now
// (Unix nanoseconds), is at most markSlack after marked, the one recorded
// when the store wrote or checked it: the moves of the rename and the
// mark that follow, and no later change.
func withinSlack(marked, ctime int64) bool {
	return ctime >= marked && ctime-marked <= int64(markSlack)
}

// markChecked sets writtenAttr on the open file f, in chatcli's layout,
// whose fstat before a whole read was st, after that read found it sound
// and its first block saying what the whole read did (confirms): when
// nothing changed during the read (f's size, mtime and ctime are still
// st's), the file is then known good at that size and mtime, as if this
// store had written it. Setting the attribute moves the file's ctime,
// which the list index's stamp includes: h, the header read, takes the
// ctime of a second fstat after the mark, and marked, so that the entry
// List keeps for h answers for the marked file at the next listing
// (listIndex.lookup). Failures leave h as it was (a read-only file, a
// file system without user attributes): the file is read whole again
// when the index does not answer for it.
func markChecked(f *os.File, st fs.FileInfo, h *Header) {
	now, err := f.Stat()
	if err != nil || !sameStamp(now, st) {
		return // changed during the read: its verdict holds for no stamp
	}
	var buf [writtenValueBytes]byte
	if setAttr(f, writtenAttr, appendWritten(buf[:0], now)) != nil {
		return
	}
	after, err := f.Stat()
	if err != nil || after.Size() != st.Size() || !after.ModTime().Equal(st.ModTime()) {
		return // changed since: the mark no longer matches, and the entry's stamp is st's
	}
	_, h.ctimeNanos = inodeChange(after)
	h.marked = true
}

// sameStamp reports whether two fstats of one open file show it
// unchanged: the same size, mtime and, where known, ctime.
func sameStamp(a, b fs.FileInfo) bool {
	_, ca := inodeChange(a)
	_, cb := inodeChange(b)
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && ca == cb
}
