// The trash.
//
// Deleting a session moves its file, unchanged, to the trash folder, a
// sibling of the sessions folder ($CHATCLI_HOME/trash, mode 0700):
//
//	trash/<name>.<YYYYMMDD-HHMMSS>.json      trashed at that time (UTC)
//	trash/<name>.<YYYYMMDD-HHMMSS>-<n>.json  the n-th copy of name trashed
//	                                         in that same second (n >= 2)
//
// The name is everything before the last '.' of the stem, so names holding
// dots are kept whole; the stamp comes from the store's clock. A file is
// moved by atomicfile.Move (never replacing a file there, both folders
// fsynced): after a crash the session is in one place or both, never in
// neither. Restore moves the newest copy of a name back the same way, never
// over an existing session. The journal a
// trashed session names stays in transcripts/: the retention rules treat it
// as belonging to a session as long as the trashed copy exists. Files in the
// trash that do not follow this layout are listed by no verb and removed by
// none.

package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// TrashDirName is the trash folder's name, next to the sessions folder.
const TrashDirName = "trash"

// trashStamp is the layout of the time in a trashed file's name.
const trashStamp = "20060102-150405"

// trashSuffix matches the ".<stamp>[-n].json" end of a trashed file's name.
var trashSuffix = regexp.MustCompile(`\.(\d{8}-\d{6})(?:-(\d+))?\.json$`)

// TrashEntry is one session file in the trash.
type TrashEntry struct {
	// Name is the session's name; File the trashed file's base name and Path
	// its full path.
	Name, File, Path string
	// TrashedAt is when it was moved to the trash (from the file name,
	// second precision, UTC).
	TrashedAt time.Time
	// Seq orders copies of one name trashed in the same second (1, 2, …).
	Seq       int
	SizeBytes int64
	// UpdatedAt and TranscriptID come from the file's header; Err is set
	// when the header cannot be read (the entry is still listed).
	UpdatedAt    time.Time
	TranscriptID string
	Err          error
}

// TrashDir is the folder holding trashed sessions: <sessions>/../trash.
func (s *Store) TrashDir() string { return filepath.Join(filepath.Dir(s.dir), TrashDirName) }

// Trash moves session name to the trash and returns the new entry.
// ErrNotFound when there is no such session. The file is moved byte for
// byte, readable or not (atomicfile.Move, creating the trash folder), under
// the session's lock, as Rename moves it: a write that returned before the
// move is in the trashed copy; one after it finds no file (SaveIf: a
// Missing conflict; Save: a new session). An error wrapping
// atomicfile.ErrNotDurable comes with the entry: the file is in the trash.
func (s *Store) Trash(name string) (TrashEntry, error) {
	n, p, err := s.path(name)
	if err != nil {
		return TrashEntry{}, err
	}
	dir := s.TrashDir()
	var file string
	moved := s.withMoveLocks(n, "", func() error {
		file, err = s.moveToTrash(n, p, dir)
		return err
	})
	if moved != nil && !errors.Is(moved, atomicfile.ErrNotDurable) {
		return TrashEntry{}, moved
	}
	e, err := s.trashEntry(dir, file)
	if err != nil {
		return e, errors.Join(moved, err)
	}
	return e, moved
}

// moveToTrash moves file p of session n into the trash folder dir and
// returns its name there. The caller holds n's lock.
func (s *Store) moveToTrash(n, p, dir string) (string, error) {
	return s.putInTrash(n, p, dir, func(dst string) error { return moveKeepingMark(p, dst) })
}

// TrashCopy puts a copy of session name's file in the trash, as Trash
// would move it there, and leaves the session in place: the version a
// rewrite is about to replace stays restorable (Restore, once the session
// itself is renamed or deleted). The copy of a plaintext file whose
// first block the store vouches for (its mark, written.go) carries the
// mark too. It holds the session's lock. Errors:
// ErrInvalidName, ErrNotFound, ErrLocked, the file's read or write error.
func (s *Store) TrashCopy(name string) (TrashEntry, error) {
	n, p, err := s.path(name)
	if err != nil {
		return TrashEntry{}, err
	}
	dir := s.TrashDir()
	var file string
	copied := s.withLock(n, func() error {
		data, vouched, err := s.readVouched(p)
		if errors.Is(err, fs.ErrNotExist) {
			return i18n.Errorf("%w: %q (no file %s)", ErrNotFound, n, p)
		}
		if err != nil {
			return fmt.Errorf("session: read %s: %w", p, err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("session: create %s: %w", dir, err)
		}
		file, err = s.putInTrash(n, p, dir, func(dst string) error {
			since := time.Now().Add(-time.Second) // file times come from a coarser clock
			err := atomicfile.CreateFile(dst, data)
			if vouched && (err == nil || errors.Is(err, atomicfile.ErrNotDurable)) { // the same bytes: as good as the session's file
				markWritten(dst, nil, int64(len(data)), since)
			}
			return err
		})
		return err
	})
	if copied != nil && !errors.Is(copied, atomicfile.ErrNotDurable) {
		return TrashEntry{}, copied
	}
	e, err := s.trashEntry(dir, file)
	return e, errors.Join(copied, err)
}

// onCopyRead runs in readVouched after the file's bytes are read, before
// its stamp is taken again (a seam: tests change the file there).
var onCopyRead = func(string) {}

// readVouched reads the whole plaintext or sealed file p and reports
// whether its first block is vouched for as checkedHeader trusts it: a
// plaintext file carrying the store's mark, or one this store last wrote
// or confirmed, and that did not change while it was read. Errors are
// storefile.ReadFile's.
func (s *Store) readVouched(p string) (data []byte, vouched bool, err error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data = make([]byte, st.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	data = data[:n]
	onCopyRead(p)
	if after, err := f.Stat(); err != nil || !sameStamp(st, after) {
		return data, false, nil // changed during the read: the bytes may be of two versions
	}
	if int64(n) != st.Size() || IsSealedFile(data) || seal.IsChatCLIEnvelope(data) {
		return data, false, nil // shrunk meanwhile, or not plaintext
	}
	if writtenHere(f, st) {
		return data, true, nil
	}
	var h Header
	if h.decodeFast(bytes.NewReader(data)) != nil {
		return data, false, nil
	}
	return data, s.vouched.known(p, st, h.Revision), nil
}

// putInTrash places session n's file p in the trash folder dir through
// put, under the first free name n.<stamp>[-k].json, and returns it.
func (s *Store) putInTrash(n, p, dir string, put func(dst string) error) (string, error) {
	if err := storefile.Dir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) { // never into a link to elsewhere
		return "", fmt.Errorf("session: trash %q: %w", n, err)
	}
	at := s.now().UTC().Truncate(time.Second)
	for seq := 1; seq < 1000; seq++ {
		file := n + "." + at.Format(trashStamp)
		if seq > 1 {
			file += "-" + strconv.Itoa(seq)
		}
		file += fileExt
		err := put(filepath.Join(dir, file))
		switch {
		case errors.Is(err, fs.ErrExist):
			continue
		case errors.Is(err, fs.ErrNotExist):
			return "", i18n.Errorf("%w: %q (no file %s)", ErrNotFound, n, p)
		case err == nil:
		case errors.Is(err, atomicfile.ErrNotDurable):
			return file, fmt.Errorf("session: trash %q: %w", n, err)
		default:
			return "", fmt.Errorf("session: trash %q: %w", n, err)
		}
		afterLink()
		return file, nil
	}
	return "", fmt.Errorf("session: move %s to the trash: too many copies trashed at %s", p, at.Format(trashStamp))
}

// TrashList returns every trashed session, newest first (ties by name).
// A missing trash folder is an empty trash; a trash that is a link or not
// a folder is an error wrapping storefile.ErrNotRegular, naming it.
func (s *Store) TrashList() ([]TrashEntry, error) {
	dir := s.TrashDir()
	err := storefile.Dir(dir) // a link is never listed, emptied or restored through
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var ents []fs.DirEntry
	if err == nil {
		ents, err = os.ReadDir(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("session: list trash %s: %w", dir, err)
	}
	var out []TrashEntry
	for _, de := range ents {
		if de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		if e, err := s.trashEntry(dir, de.Name()); err == nil {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].TrashedAt.Equal(out[j].TrashedAt) || out[i].Seq != out[j].Seq {
			return newer(out[i], out[j])
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// EmptyTrash removes the trashed sessions moved to the trash at least
// olderThan ago by the store's clock (0: every one) and returns them. It
// goes on past a failure and returns every error joined.
func (s *Store) EmptyTrash(olderThan time.Duration) (removed []TrashEntry, err error) {
	list, err := s.TrashList()
	if err != nil {
		return nil, err
	}
	now := s.now()
	var errs []error
	for _, e := range list {
		if now.Sub(e.TrashedAt) < olderThan {
			continue
		}
		if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("session: empty trash: %w", err))
			continue
		}
		removed = append(removed, e)
	}
	if len(removed) > 0 {
		errs = append(errs, atomicfile.SyncDir(s.TrashDir()))
	}
	return removed, errors.Join(errs...)
}

// trashEntry describes trash file file in dir, or fails when its name does
// not follow the trash layout.
func (s *Store) trashEntry(dir, file string) (TrashEntry, error) {
	m := trashSuffix.FindStringSubmatchIndex(file)
	if m == nil {
		return TrashEntry{}, fmt.Errorf("session: %s is not a trashed session", file)
	}
	name := file[:m[0]]
	if n, err := NormalizeName(name); err == nil {
		name = n // a session trashed under its NFD spelling is restored under NFC
	} else if !chatcliName(name) { // or one ChatCLI created
		return TrashEntry{}, fmt.Errorf("session: %s is not a trashed session", file)
	}
	at, err := time.Parse(trashStamp, file[m[2]:m[3]])
	if err != nil {
		return TrashEntry{}, fmt.Errorf("session: %s is not a trashed session", file)
	}
	seq := 1
	if m[4] >= 0 {
		if seq, err = strconv.Atoi(file[m[4]:m[5]]); err != nil || seq < 2 {
			return TrashEntry{}, fmt.Errorf("session: %s is not a trashed session", file)
		}
	}
	e := TrashEntry{Name: name, File: file, Path: filepath.Join(dir, file), TrashedAt: at, Seq: seq}
	h, err := s.checkedHeader(name, e.Path) // as List reads a session file, so a copy edited past its first block is damaged here too
	e.SizeBytes, e.UpdatedAt, e.TranscriptID, e.Err = h.SizeBytes, h.UpdatedAt, h.TranscriptID, err
	if errors.Is(err, fs.ErrNotExist) {
		return e, err
	}
	if e.SizeBytes == 0 {
		if st, serr := os.Lstat(e.Path); serr == nil {
			e.SizeBytes = st.Size()
		}
	}
	return e, nil
}
