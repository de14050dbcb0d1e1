package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

const fileExt = ".json"

// afterLink runs after a move of a session file, before its locks are
// released (a seam: tests widen that moment, in which a racing write must
// wait).
var afterLink = func() {}

// Store is the folder of session files, <home>/sessions. It is safe for use
// by several processes: every write replaces a whole file atomically.
type Store struct {
	dir   string
	now   func() time.Time
	locks lockState // see lock.go
	key   seal.Key  // encryption at rest; zero when off (sealed.go)
	keys  keyState  // the key against the store's files (keycheck.go)
	// journalDir holds the journals whose tails Load and the headers
	// apply (tail.go); "" reads files as they are.
	journalDir string
	// known holds the files this store last wrote or verified, whose
	// check before a replace is skipped (overwrite.go).
	known knownFiles
	// vouched holds the plaintext files this store last wrote, or read
	// whole and found to say in their first block what their whole
	// document says, whose first block List and Stat trust without the
	// mark (checkedHeader): the mark's stand-in where it cannot be set.
	vouched knownFiles
	// listed is the list index as Stat last read it (statindex.go).
	listed listedIndex
	// chatcliKey opens files in ChatCLI's envelope (chatcli_enc.go).
	chatcliKey seal.ChatCLIKey
	// progress is told how List's whole reads go (SetListProgress); nil
	// when nothing is.
	progress func(done, total int)
}

// Open returns the store under dir, creating it (mode 0700) if needed.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, i18n.Errorf("session: create store %s: %w", dir, err)
	}
	return &Store{dir: dir, now: time.Now}, nil
}

// Dir is the folder holding the session files.
func (s *Store) Dir() string { return s.dir }

// SetClock replaces the clock used for created_at and updated_at (tests).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// Path returns the file a valid name maps to, or an ErrInvalidName error.
func (s *Store) Path(name string) (string, error) {
	_, p, err := s.path(name)
	return p, err
}

// Load reads a session. Errors: ErrInvalidName, ErrNotFound, ErrCorrupt
// (empty, cut or invalid file, naming it and the byte offset), ErrTooNew
// (naming both versions). The file is never changed by a failed load.
// A file without updated_at (other programs write none) gets the file's
// modification time, as its Header does, so the two always agree.
func (s *Store) Load(name string) (*Session, error) {
	n, p, err := s.path(name)
	if err != nil {
		return nil, err
	}
	return s.LoadFile(n, p)
}

// LoadFile reads the session file at path p holding session name (the
// name a sealed file is sealed for: its file name without ".json") as
// Load reads a session, for files no name maps to, such as trashed
// sessions (TrashEntry.Path) or files whose name is not in normal form.
// Errors are Load's: ErrNotFound, ErrCorrupt and ErrTooNew naming p,
// ErrEncrypted naming the session, or one wrapping seal.ErrWrongKey. The
// file is never changed.
func (s *Store) LoadFile(name, p string) (*Session, error) {
	sess, mtime, err := s.decodePath(name, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, i18n.Errorf("%w: %q (no file %s)", ErrNotFound, name, p)
	}
	if err != nil {
		return nil, err
	}
	if sess.UpdatedAt.IsZero() {
		sess.UpdatedAt = mtime
	}
	s.relink(name, sess) // a file rewritten by ChatCLI (link.go)
	if err := s.applyTail(sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// decodePath decodes the session file at p holding session name, and
// returns its modification time (from the same open file, so the two
// belong together). A plaintext file, and the body of a sealed container
// of version 2, are decoded as they are read (DecodeReader: memory for the
// session, not for the file too); a version-1 body or a file in ChatCLI's
// envelope is read whole and opened. Errors: one wrapping fs.ErrNotExist,
// a read error naming p, the container errors (containerError), or
// decodeFile's.
func (s *Store) decodePath(name, p string) (*Session, time.Time, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	r := storefile.Reader(f, st) // never past the size seen
	head := make([]byte, len(containerMagic))
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, time.Time{}, fmt.Errorf("session: read %s: %w", p, err)
	}
	head = head[:n]
	if !IsSealedFile(head) && (n == 0 || !bytes.HasPrefix([]byte(seal.ChatCLIMagic), head)) {
		sess, err := DecodeReader(io.MultiReader(bytes.NewReader(head), r))
		if err != nil {
			return nil, time.Time{}, classifyRead(p, err)
		}
		s.known.set(p, idOf(st, sess.Revision)) // verified: a replace need not decode it again
		return sess, st.ModTime(), nil
	}
	if IsSealedFile(head) {
		sess, err := s.decodeSealed(name, p, f, st.Size())
		return sess, st.ModTime(), err
	}
	data := make([]byte, max(st.Size(), int64(n)))
	copy(data, head)
	k, err := io.ReadFull(r, data[n:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, time.Time{}, fmt.Errorf("session: read %s: %w", p, err)
	}
	data = data[:n+k]
	sess, err := s.decodeFile(name, p, data)
	return sess, st.ModTime(), err
}

// Save writes sess under name durably (atomicfile.WriteFile), after setting
// UpdatedAt to now, CreatedAt when it is zero, Title when it is empty, and
// incrementing Revision; sess is changed accordingly. An existing file that
// cannot be read (empty, cut, invalid) or is too new is never overwritten:
// the error wraps ErrCorrupt or ErrTooNew. On a failed write the previous
// file is byte-identical; an error wrapping atomicfile.ErrNotDurable is not
// a failed write: the file holds sess, but its folder's fsync failed. The last writer wins; writes are serialised by
// the session's lock (ErrLocked on timeout) and the new revision is above
// the stored one. SaveIf is the conditional form.
func (s *Store) Save(name string, sess *Session) error {
	n, _, err := s.path(name)
	if err != nil {
		return err
	}
	if err := s.KeyRefusal(); err != nil { // before the lock: no lock file left either
		return err
	}
	return s.withLock(n, func() error {
		s.raiseRevision(n, sess)
		return s.save(n, sess)
	})
}

// save is Save for a caller holding the session's lock.
func (s *Store) save(name string, sess *Session) error {
	_, p, err := s.path(name)
	if err != nil {
		return err
	}
	// The file being replaced is checked while the new one is encoded (on
	// another core): two passes over up to tens of megabytes that need not
	// wait for each other. A failed check writes nothing and leaves sess
	// as it was.
	checked := make(chan error, 1)
	go func() { checked <- s.checkOverwrite(p) }()
	before := *sess
	if sess.Revision == 0 { // a new file, or one ChatCLI rewrote: continue the name's revisions (link.go)
		sess.Revision = s.linkedRevision(name)
	}
	data, write, err := s.prepare(p, sess)
	if cerr := <-checked; cerr != nil {
		sess.Revision, sess.UpdatedAt, sess.CreatedAt, sess.Title = before.Revision, before.UpdatedAt, before.CreatedAt, before.Title
		return cerr
	}
	if err != nil {
		return err
	}
	var info fs.FileInfo
	if write != nil {
		info, err = atomicfile.WriteStatWith(p, write)
	} else {
		info, err = atomicfile.WriteFileStat(p, data)
	}
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	// Known as the file written, whoever writes the path next.
	s.known.set(p, idOf(info, sess.Revision))
	if !s.key.IsZero() { // written, durably or not
		s.forgetListed(filepath.Base(p)) // its entry would keep the title in plaintext
	} else {
		markWritten(p, info, 0, time.Time{})
		s.vouched.set(p, idOf(info, sess.Revision))
	}
	s.keepLink(name, sess) // where ChatCLI does not write (link.go)
	return err
}

// Create writes sess under name like Save, but only when no session of that
// name exists (ErrExists otherwise); atomicfile.ErrNotDurable as for Save.
func (s *Store) Create(name string, sess *Session) error {
	n, p, err := s.path(name)
	if err != nil {
		return err
	}
	if l := s.linkedRevision(n); l > sess.Revision { // continue the name's revisions, as save does (link.go)
		sess.Revision = l
	}
	data, write, err := s.prepare(p, sess)
	if err != nil {
		return err
	}
	err = s.withLock(n, func() error {
		since := time.Now().Add(-time.Second) // file times come from a coarser clock
		var err error
		if write != nil {
			err = atomicfile.CreateWith(p, write)
		} else {
			err = atomicfile.CreateFile(p, data)
		}
		if s.key.IsZero() && (err == nil || errors.Is(err, atomicfile.ErrNotDurable)) {
			markWritten(p, nil, int64(len(data)), since)
		}
		return err
	})
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %q", ErrExists, n)
		}
		return err
	}
	s.keepLink(n, sess)
	return nil
}

// CreateUnique saves sess under base, or base-2, base-3, … the first that is
// free, and returns the name used; two processes racing for one base get two
// names (the file is published exclusively). An error wrapping
// atomicfile.ErrNotDurable comes with the name: the session is written.
func (s *Store) CreateUnique(base string, sess *Session) (string, error) {
	for i := 1; i < 1000; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		err := s.Create(name, sess)
		if err == nil || errors.Is(err, atomicfile.ErrNotDurable) {
			return name, err
		}
		if !errors.Is(err, ErrExists) {
			return "", err
		}
		sess.Revision-- // prepare incremented it
	}
	return "", i18n.Errorf("%w: %q and its numbered variants", ErrExists, base)
}

// prepare updates sess for a save and returns what to write at file p:
// without a key, its encoded document; with one, write, which streams the
// sealed file, the document encoded straight into its body, so that no whole copy of the document or the
// file is held. A refused key (KeyRefusal) seals nothing: the error wraps
// ErrKeyRefused.
func (s *Store) prepare(p string, sess *Session) (data []byte, write func(io.Writer) error, err error) {
	now := s.now()
	if sess.CreatedAt.IsZero() {
		sess.CreatedAt = now
	}
	sess.UpdatedAt = now
	if sess.Title == "" {
		sess.Title = DeriveTitle(sess.History)
	}
	sess.Revision++
	if !s.key.IsZero() {
		if err := s.KeyRefusal(); err != nil {
			return nil, nil, err
		}
		k, name, h := s.key, nameOf(p), headerOf(sess)
		return nil, func(w io.Writer) error { return writeContainer(w, k, name, h, nil, sess) }, nil
	}
	data, err = Encode(sess)
	return data, nil, err
}

// Stat returns the header of one session, with the journal records after
// the file's journal_pos counted in (see SetJournalDir). It reads the file
// as List does (checkedHeader): only the first block of a file this store
// wrote or checked and nothing changed since, else the whole document,
// once (the file is then marked). Errors: ErrInvalidName, ErrNotFound, and
// those of Load for a file that cannot be read, as List reports them.
func (s *Store) Stat(name string) (Header, error) {
	h, err := s.StatFile(name)
	if err == nil {
		s.headerTail(&h)
	}
	return h, err
}

// StatFile is Stat of the file alone: its header as written, without the
// journal records after it (the cost of one small read, whatever the
// journal holds, for a file this store wrote or checked).
func (s *Store) StatFile(name string) (Header, error) {
	n, p, err := s.path(name)
	if err != nil {
		return Header{}, err
	}
	h, err := s.checkedHeader(n, p)
	h.Name = n
	if errors.Is(err, fs.ErrNotExist) {
		return h, i18n.Errorf("%w: %q (no file %s)", ErrNotFound, n, p)
	}
	return h, err
}

// Exists reports whether a session file of that name exists.
func (s *Store) Exists(name string) bool {
	p, err := s.Path(name)
	if err != nil {
		return false
	}
	_, err = os.Lstat(p)
	return err == nil
}

// List returns the header of every session, newest first by stored
// updated_at (ties by name), each with its journal's tail counted in.
// Unreadable files are included with Err set, never hidden; an entry that
// is not a regular file (a directory, FIFO, link or device named *.json)
// is listed with an Err wrapping storefile.ErrNotRegular, and is never
// opened. Hidden files (names starting with '.': temporary files) are
// skipped. A file is read whole, its messages checked as Load decodes
// them, unless this store wrote it and it has not changed since
// (written.go); the headers and corrupt verdicts of plaintext files are
// kept in a derived index (listIndexFile), so a file is read again only
// once it changed.
func (s *Store) List() ([]Header, error) {
	listed := fileClock() // before any stat of the files whose headers the index keeps
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("session: list %s: %w", s.dir, err)
	}
	out := make([]Header, 0, len(entries))
	var unread []int  // positions in out of the headers to read from their files
	var kept []string // the files whose index entries stand
	idx := s.readListIndex()
	dir := openDir(s.dir)
	defer dir.close()
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), fileExt)
		if !ok || strings.HasPrefix(name, ".") {
			continue
		}
		if !e.Type().IsRegular() { // listed as what it is, never opened
			err := fmt.Errorf("session: %w: %s", storefile.KindError(e.Type()), filepath.Join(s.dir, e.Name()))
			out = append(out, Header{Name: name, Messages: -1, Err: err})
			continue
		}
		if _, indexed := idx[e.Name()]; indexed { // only then is the file's stat needed first
			if st, ok := dir.stamp(e.Name()); ok {
				if h, ok := idx.lookup(e.Name(), st); ok {
					h.Name = name
					kept = append(kept, e.Name())
					out = append(out, h)
					continue
				}
			}
		}
		unread = append(unread, len(out))
		out = append(out, Header{Name: name})
	}
	read := s.completeHeaders(out, unread)
	fresh := listIndex{}
	for _, h := range read {
		if cacheable(h) {
			fresh.store(h.Name+fileExt, h, listed)
		}
	}
	if len(fresh) > 0 || len(kept) != len(idx) {
		for _, file := range kept {
			fresh[file] = idx[file]
		}
		s.writeListIndex(fresh)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}
