package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// listIndexFile is a derived index of the headers List cannot read
// cheaply (files written by other programs: no message_count, so counting
// means scanning every message), kept in the store's cache folder beside
// the sessions folder, never in it: ChatCLI lists every *.json file there
// as a session. It maps a file name to its size, mtime and header; an
// entry is used only while size and mtime match, and the file can be
// deleted at any time. oldListIndexFile is where earlier builds kept it,
// in the sessions folder; it is removed when the index is written.
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
// build's: 0, as it has no rules member) is read again. 1: a file's
// messages are checked as Load decodes them (headerscan.go, scancheck.go),
// a file in chatcli's layout without this store's mark is read whole
// (written.go), an entry keeps its journal position and a file Load
// refuses as corrupt is kept with its error. Raise it with every change to
// what List accepts.
const listIndexRules = 1

type listIndexEntry struct {
	Rules        int       `json:"rules"`
	Size         int64     `json:"size"`
	MtimeNanos   int64     `json:"mtime_ns"`
	Title        string    `json:"title"`
	Messages     int       `json:"messages"`
	CreatedAt    time.Time `json:"created_at,omitzero"`
	UpdatedAt    time.Time `json:"updated_at"`
	Revision     int64     `json:"revision,omitempty"`
	TranscriptID string    `json:"transcript_id,omitempty"`
	Lineage      *Lineage  `json:"lineage,omitempty"`
	Version      int       `json:"version"`
	// JournalPos is the journal position the header covers, from which
	// List counts the journal's later records in.
	JournalPos journal.Pos `json:"journal_pos,omitzero"`
	// Corrupt is the error, after ErrCorrupt's text, of a file Load
	// refuses as unreadable; "" for a readable file.
	Corrupt string `json:"corrupt,omitempty"`
}

type listIndex map[string]listIndexEntry

func (s *Store) readListIndex() listIndex {
	idx := listIndex{}
	if data, err := storefile.ReadFile(s.listIndexPath()); err == nil {
		_ = json.Unmarshal(data, &idx) // a damaged index is rebuilt
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

// lookup returns the cached header of file when it has not changed and
// its entry follows this build's rules.
func (idx listIndex) lookup(file string, info fs.FileInfo) (Header, bool) {
	e, ok := idx[file]
	if !ok || e.Rules != listIndexRules || e.Size != info.Size() || e.MtimeNanos != info.ModTime().UnixNano() {
		return Header{}, false
	}
	h := Header{Title: e.Title, Messages: e.Messages, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		Revision: e.Revision, TranscriptID: e.TranscriptID, Lineage: e.Lineage, JournalPos: e.JournalPos, Version: e.Version,
		SizeBytes: e.Size, modTime: info.ModTime()}
	if e.Corrupt != "" {
		h.Err = fmt.Errorf("%w: %s", ErrCorrupt, e.Corrupt)
	}
	return h, true
}

// cacheable reports whether List keeps h in the index: a header read from
// its file's messages (not the fast path's, nor a sealed file's), of a
// file that is readable or that Load refuses as corrupt.
func cacheable(h Header) bool {
	return !h.skipped && !h.modTime.IsZero() && (h.Err == nil || errors.Is(h.Err, ErrCorrupt))
}

// store records h, read from file, under the size and modification time
// of the open file it was read through (taken before the read, so a file
// changed meanwhile mismatches next time rather than passing as h).
func (idx listIndex) store(file string, h Header) {
	e := listIndexEntry{Rules: listIndexRules, Size: h.SizeBytes, MtimeNanos: h.modTime.UnixNano(), Title: h.Title,
		Messages: h.Messages, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt, Revision: h.Revision,
		TranscriptID: h.TranscriptID, Lineage: h.Lineage, Version: h.Version, JournalPos: h.JournalPos}
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
