package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// listIndexFile is a derived index of the headers List reads, kept in
// the store's cache folder beside the sessions folder, never in it:
// ChatCLI lists every *.json file there as a session. It maps a file name
// to the file's stamp (size, mtime, inode, ctime) and the header read from
// it, before its journal's tail; an entry answers for a file whose stamp
// is the same, so listing an unchanged store opens no session file. The
// file can be deleted at any time. oldListIndexFile is where earlier
// builds kept it, in the sessions folder; it is removed when the index is
// written.
const (
	listIndexFile    = "session-list.json"
	oldListIndexFile = ".list-index.json"
)

// CacheDirName is the folder beside the sessions folder holding derived
// files that may be deleted at any time.
const CacheDirName = "cache"

// listIndexPath is the list index's file.
func (s *Store) listIndexPath() string {
	return filepath.Join(filepath.Dir(s.dir), CacheDirName, listIndexFile)
}

// listIndexRules is the version of the rules by which List reached the
// verdicts the list index keeps; an entry of other rules (an earlier
// build's: 0 when it has no rules member) is read again. 1: a file's
// messages are checked as Load decodes them (headerscan.go, scancheck.go),
// a file in chatcli's layout without this store's mark is read whole
// (written.go), an entry keeps its journal position and a file Load
// refuses as corrupt is kept with its error. 2: an entry keeps its file's
// inode, ctime and listing time (listed_ns) and answers for the file
// without opening it, and the byte-level checks of scanvalid.go decide
// what a foreign file's messages may hold. Raise it with every change to
// what List accepts.
const listIndexRules = 2

type listIndexEntry struct {
	Rules      int    `json:"rules"`
	Size       int64  `json:"size"`
	MtimeNanos int64  `json:"mtime_ns"`
	Ino        uint64 `json:"ino,omitempty"`      // 0 where unknown (inodeChange)
	CtimeNanos int64  `json:"ctime_ns,omitempty"` // 0 where unknown (inodeChange)
	// ListedNanos is when the file was stat'ed for this entry (Unix
	// nanoseconds).
	ListedNanos  int64     `json:"listed_ns"`
	Title        string    `json:"title"`
	Messages     int       `json:"messages"`
	CreatedAt    time.Time `json:"created_at,omitzero"`
	UpdatedAt    time.Time `json:"updated_at"`
	Revision     int64     `json:"revision,omitempty"`
	TranscriptID string    `json:"transcript_id,omitempty"`
	Lineage      *Lineage  `json:"lineage,omitempty"`
	// JournalPos is the journal position the header covers, from which
	// List counts the journal's later records in.
	JournalPos journal.Pos `json:"journal_pos,omitzero"`
	Version    int         `json:"version"`
	// Corrupt is the error, after ErrCorrupt's text, of a file Load
	// refuses as unreadable; "" for a readable file.
	Corrupt string `json:"corrupt,omitempty"`
	// Marked says the listing that made the entry set its file's mark
	// after reading it whole (markChecked): CtimeNanos is the ctime that
	// mark left, so that ctime is the store's own change, and only the
	// mtime is held against racyNanos.
	Marked bool `json:"marked,omitempty"`
}

// racyNanos is how close to the moment a file was stat'ed its last change
// may be for the entry made then to be trusted: a file's times move in
// ticks (a jiffy on Linux, 1 s or 2 s on some file systems), so a file
// changed again within the tick of that stat, in place and to the same
// size, would keep its stamp. Such an entry is used only after its file
// is read again (git's "racy clean" entries, which it compares by
// content).
const racyNanos = int64(2 * time.Second)

// fileClock is the clock file times are compared with (a seam: tests age
// the list index's entries with it).
var fileClock = time.Now

type listIndex map[string]listIndexEntry

func (s *Store) readListIndex() listIndex {
	idx := listIndex{}
	if data, err := storefile.ReadFile(s.listIndexPath()); err == nil {
		_ = decodeListIndex(data, idx) // a damaged index is rebuilt
	}
	return idx
}

func (s *Store) writeListIndex(idx listIndex) {
	data, err := json.Marshal(idx)
	if err != nil {
		return
	}
	p := s.listIndexPath()
	if os.MkdirAll(filepath.Dir(p), 0o700) == nil && atomicfile.WriteFile(p, data) == nil { // only a cache
		_ = os.Remove(filepath.Join(s.dir, oldListIndexFile))
	}
}

// forgetListed removes file's entry from the list index; a file being
// sealed calls it, since the entry holds its title in plaintext. An index
// that cannot be read or rewritten is removed whole (it is only a cache).
func (s *Store) forgetListed(file string) {
	_ = os.Remove(filepath.Join(s.dir, oldListIndexFile)) // an earlier build's, with the same entries
	p := s.listIndexPath()
	data, err := storefile.ReadFile(p)
	if err != nil {
		return // none
	}
	idx := listIndex{}
	if json.Unmarshal(data, &idx) == nil {
		if _, ok := idx[file]; !ok {
			return
		}
		delete(idx, file)
		if out, err := json.Marshal(idx); err == nil && atomicfile.WriteFile(p, out) == nil {
			return
		}
	}
	_ = os.Remove(p)
}

// lookup returns the cached header of file when st, its lstat, has the
// stamp of its entry, the entry is not racy (racyNanos) and it follows
// this build's rules (listIndexRules).
//
// The ctime of an entry whose listing marked the file (Marked) is that of
// the mark itself, always within racyNanos of the listing: it is not
// held against racyNanos. A later change of the file's bytes within the
// ctime's tick would keep the ctime, but it moves the mtime, older than
// racyNanos, to the time of the change; only a change that also sets the
// mtime back within that one tick would keep the stamp.
func (idx listIndex) lookup(file string, st fileStamp) (Header, bool) {
	e, ok := idx[file]
	if !ok || e.Rules != listIndexRules || e.ListedNanos == 0 || !st.regular || e.Size != st.size || e.MtimeNanos != st.mtimeNanos ||
		st.ino != e.Ino || st.ctimeNanos != e.CtimeNanos {
		return Header{}, false
	}
	changed := st.mtimeNanos
	if !e.Marked {
		changed = max(st.ctimeNanos, st.mtimeNanos)
	}
	if changed >= e.ListedNanos-racyNanos {
		return Header{}, false
	}
	h := Header{Title: e.Title, Messages: e.Messages, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		Revision: e.Revision, TranscriptID: e.TranscriptID, Lineage: e.Lineage, JournalPos: e.JournalPos, Version: e.Version,
		SizeBytes: e.Size, modTime: time.Unix(0, st.mtimeNanos)}
	if e.Corrupt != "" {
		h.Err = fmt.Errorf("%w: %s", ErrCorrupt, e.Corrupt)
	}
	return h, true
}

// cacheable reports whether List keeps h, as read from its file, in the
// index: a plaintext file's header (not a sealed file's, whose title would
// be plaintext there, and which has no file time), read by the fast path
// from a file this store wrote or checked through its messages, of a file
// that is readable or that Load refuses as corrupt.
func cacheable(h Header) bool {
	return !h.skipped && !h.modTime.IsZero() && (h.Err == nil || errors.Is(h.Err, ErrCorrupt))
}

// store records h, read from file before its journal's tail, under the
// stamp of the open file it was read through (taken before the read, so
// a file changed meanwhile mismatches next time rather than passing as
// h), stat'ed at listed.
func (idx listIndex) store(file string, h Header, listed time.Time) {
	e := listIndexEntry{Rules: listIndexRules, Size: h.SizeBytes, MtimeNanos: h.modTime.UnixNano(), Ino: h.ino,
		CtimeNanos: h.ctimeNanos, ListedNanos: listed.UnixNano(), Title: h.Title, Messages: h.Messages,
		CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt, Revision: h.Revision, TranscriptID: h.TranscriptID,
		Lineage: h.Lineage, JournalPos: h.JournalPos, Version: h.Version, Marked: h.marked}
	if h.Err != nil {
		e.Corrupt = strings.TrimPrefix(h.Err.Error(), ErrCorrupt.Error()+": ")
	}
	idx[file] = e
}

// Unchanged reports whether the file of session h.Name still has the size
// and modification time it had when h was read by List or Stat of this
// store, the test by which the list index trusts an entry: h then still
// describes the file, and it need not be read again. It is false when the
// file is gone or cannot be stat'ed, and for a header whose file time is
// unknown (a sealed file's).
func (s *Store) Unchanged(h Header) bool {
	if h.modTime.IsZero() {
		return false
	}
	_, p, err := s.path(h.Name)
	if err != nil {
		return false
	}
	info, err := os.Lstat(p)
	return err == nil && info.Mode().IsRegular() && info.Size() == h.SizeBytes && info.ModTime().Equal(h.modTime)
}
