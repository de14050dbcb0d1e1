package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Options says what an Index covers.
type Options struct {
	// Store is the session store indexed; its key, when set, seals every
	// index file.
	Store *session.Store
	// JournalDir is the folder of journals ("" when the journal is off:
	// sessions are then indexed from their snapshots).
	JournalDir string
	// Progress, when set, hears how many bytes of sessions and journals a
	// Sync has read of those it has to, as it reads them.
	Progress func(done, total int64)
}

// Index is the persistent index of a store, kept in Dir(store) (see the
// package doc). One Index is meant to live as long as its process: it
// keeps the segments it opened and the manifest it read. It is safe for
// concurrent use; processes sharing the folder take its lock file to
// write.
type Index struct {
	dir string
	o   Options
	key seal.Key

	mu  sync.Mutex
	man *manifest
	// manInfo is the manifest file man was read from or written to; nil
	// when man may differ from the file.
	manInfo os.FileInfo
	// logEnd is the length of man.Log that man holds: the end of its
	// last entry (0 when there is no log); logEntries counts them.
	logEnd     int64
	logEntries int
	dead       map[uint32]bool
	segs       map[string]*segment // open segments by file name
	// seen is Search's scratch: the family and source of each match.
	seen []familySource
	// writes counts the index's durable writes (log entries appended,
	// manifests stored), so that a merge tells whether the index changed
	// since it planned its manifest.
	writes uint64
	// gen counts the times man was replaced whole (a rebuild, a reload
	// from disk), so that a merge tells the index it noted from another.
	gen uint64
	// job is the merge running in the background (nil: none), jobs its
	// goroutine; closing is set by Close, after which none starts.
	job     *mergeJob
	jobs    sync.WaitGroup
	closing bool
	// file is the write lock on the lock file, held refs times by this
	// process (an update and a merge of its own share it).
	file struct {
		mu   sync.Mutex
		refs int
		l    interface{ Unlock() error }
	}
}

// Dir returns the index folder of st: "index" beside its sessions folder
// (CHATCLI_HOME/index).
func Dir(st *session.Store) string { return filepath.Join(filepath.Dir(st.Dir()), "index") }

// Open returns the index of o.Store. Nothing is read or written until the
// first Sync.
func Open(o Options) *Index {
	return &Index{dir: Dir(o.Store), o: o, key: o.Store.Key(), segs: map[string]*segment{}}
}

// lock creates the index folder (0700) and takes its write lock, which
// the returned function releases. The lock is the process's: a second
// hold (a merge in the background and an update) does not wait, and the
// lock file is unlocked once both released it; other processes wait.
func (ix *Index) lock() (func(), error) {
	ix.file.mu.Lock()
	defer ix.file.mu.Unlock()
	if ix.file.refs == 0 {
		if err := os.MkdirAll(ix.dir, 0o700); err != nil {
			return nil, i18n.Errorf("index: %w", err)
		}
		if err := storefile.Dir(ix.dir); err != nil { // a link to a folder elsewhere: nothing is written through it
			return nil, i18n.Errorf("index: %w", err)
		}
		l, err := storefile.NewLock(filepath.Join(ix.dir, "lock"), os.O_CREATE|os.O_RDWR)
		if err == nil {
			err = l.Lock()
		}
		if err != nil {
			return nil, i18n.Errorf("index: lock %s: %w", ix.dir, err)
		}
		ix.file.l = l
	}
	ix.file.refs++
	return sync.OnceFunc(func() {
		ix.file.mu.Lock()
		defer ix.file.mu.Unlock()
		if ix.file.refs--; ix.file.refs == 0 {
			ix.file.l.Unlock()
		}
	}), nil
}

// untrusted reports whether err says an index file cannot be trusted.
func untrusted(err error) bool {
	return errors.Is(err, ErrDamaged) || errors.Is(err, ErrTooNew) || errors.Is(err, ErrOldFormat) ||
		errors.Is(err, ErrKeySetting)
}

// reset forgets the whole index, on disk and in memory, after err said
// one of its files cannot be trusted; the caller holds the write lock.
// It returns the warning to show.
func (ix *Index) reset(err error) (i18n.Text, error) {
	ix.gen++
	ix.closeSegments()
	ix.man, ix.dead, ix.logEnd, ix.logEntries = &manifest{}, map[uint32]bool{}, 0, 0
	entries, rerr := os.ReadDir(ix.dir)
	if rerr != nil {
		return i18n.Text{}, i18n.Errorf("index: %w", rerr)
	}
	for _, e := range entries {
		if indexFile(e.Name()) {
			if rerr := os.Remove(filepath.Join(ix.dir, e.Name())); rerr != nil {
				return i18n.Text{}, i18n.Errorf("index: %w", rerr)
			}
		}
	}
	return i18n.Textf("%v; the search index is rebuilt", err), nil
}

// closeSegments closes every open segment.
func (ix *Index) closeSegments() {
	for name, s := range ix.segs {
		s.close()
		delete(ix.segs, name)
	}
}

// Close waits for a merge running in the background to end, then closes
// the index's open files.
func (ix *Index) Close() error {
	ix.mu.Lock()
	ix.closing = true
	ix.mu.Unlock()
	ix.jobs.Wait()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.closeSegments()
	return nil
}

// setManifest makes m current and opens its segments, closing those it
// no longer names.
func (ix *Index) setManifest(m *manifest) error {
	ix.gen++
	ix.man, ix.dead = m, map[uint32]bool{}
	for _, d := range m.Dead {
		ix.dead[d] = true
	}
	keep := map[string]bool{}
	for _, sm := range m.Segments {
		keep[sm.File] = true
		if old := ix.segs[sm.File]; old != nil {
			if fi, err := os.Lstat(filepath.Join(ix.dir, sm.File)); err == nil && os.SameFile(fi, old.info) {
				continue
			}
			old.close() // the folder was rebuilt since: the name holds another file
			delete(ix.segs, sm.File)
		}
		s, err := openSegment(ix.dir, sm.File, ix.key)
		if errors.Is(err, os.ErrNotExist) {
			err = i18n.Errorf("%w: %s names %s, which is missing", ErrDamaged, manifestName, sm.File)
		}
		if err != nil {
			return err
		}
		ix.segs[sm.File] = s
	}
	for name, s := range ix.segs {
		if !keep[name] {
			s.close()
			delete(ix.segs, name)
		}
	}
	return nil
}

// segmentPrefix and segmentExt frame a segment's file name around its
// sequence number, 16 hex digits.
const (
	segmentPrefix = "seg-"
	segmentExt    = ".ccx"
)

// indexFile reports whether name is one of the index's own files: the
// manifest, a segment or a log.
func indexFile(name string) bool {
	return name == manifestName || strings.HasPrefix(name, segmentPrefix) || isLogSegment(name)
}

func segmentFile(seq uint64) string { return fmt.Sprintf("%s%016x%s", segmentPrefix, seq, segmentExt) }

// Drop removes the index files of st (the manifest and every segment)
// under the index's write lock and reports whether there were any; the
// next Sync rebuilds them. `chatcli storage rekey` drops the index, so
// that no copy of the store's text stays readable under the old key, or in
// plaintext. A missing folder holds nothing to drop.
func Drop(st *session.Store) (bool, error) {
	ix := Open(Options{Store: st})
	if err := storefile.Dir(ix.dir); errors.Is(err, os.ErrNotExist) {
		return false, nil
	} else if err != nil { // a link to a folder elsewhere: nothing is removed through it
		return false, i18n.Errorf("index: %w", err)
	}
	unlock, err := ix.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	entries, err := os.ReadDir(ix.dir)
	if err != nil {
		return false, i18n.Errorf("index: %w", err)
	}
	found := false
	for _, e := range entries {
		found = found || indexFile(e.Name())
	}
	if !found {
		return false, nil
	}
	_, err = ix.reset(nil)
	return err == nil, err
}

// Sealed reports whether st has an index whose manifest is sealed (the
// flag of its header). `chatcli storage decrypt` drops such an index: the
// store is plaintext afterwards, and a sealed index without the key is
// left alone, never replaced (Sync).
func Sealed(st *session.Store) bool {
	f, _, err := storefile.Open(filepath.Join(Dir(st), manifestName))
	if err != nil {
		return false
	}
	defer f.Close()
	h := make([]byte, headerBytes)
	if _, err := f.ReadAt(h, 0); err != nil {
		return false
	}
	return string(h[:8]) == magic && h[8] == kindManifest && h[10]&flagSealed != 0
}
