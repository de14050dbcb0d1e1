package recent

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// FileName is the record's name under $CHATCLI_HOME.
const FileName = "recent.json"

// MaxEntries caps the record; past it the least recently used entries go.
const MaxEntries = 50000

// lockTimeout bounds the wait for another process's write (each holds the
// lock for one small read and write).
const lockTimeout = 5 * time.Second

// ErrCorrupt is wrapped by Read's error for a record that cannot be parsed.
var ErrCorrupt = i18n.Errorf("recent: damaged record")

// Entry is where and when one session was last used.
type Entry struct {
	Folder string    `json:"folder"`
	UsedAt time.Time `json:"used_at"`
}

type document struct {
	Version  int              `json:"version"`
	Sessions map[string]Entry `json:"sessions"`
}

// Record is the record file of one $CHATCLI_HOME.
type Record struct{ home string }

// Open returns the record of home; nothing is read or created until used.
func Open(home string) *Record { return &Record{home: home} }

// Path is the record file's path.
func (r *Record) Path() string { return filepath.Join(r.home, FileName) }

// Read returns every entry by session name; an empty map when there is no
// record yet. Errors: ErrCorrupt wrapped with the file's path, or the read
// error.
func (r *Record) Read() (map[string]Entry, error) {
	data, err := storefile.ReadFile(r.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Entry{}, nil
	}
	if err != nil {
		return nil, i18n.Errorf("recent: read %s: %w", r.Path(), err)
	}
	var d document
	if err := json.Unmarshal(data, &d); err != nil || d.Version != 1 {
		if err == nil {
			err = i18n.Errorf("version %d, want 1", d.Version)
		}
		return nil, i18n.Errorf("%w: %s: %v", ErrCorrupt, r.Path(), err)
	}
	if d.Sessions == nil {
		d.Sessions = map[string]Entry{}
	}
	return d.Sessions, nil
}

// InFolder returns the names of the sessions last used in folder, most
// recently used first (ties by name).
func InFolder(entries map[string]Entry, folder string) []string {
	var out []string
	for n, e := range entries {
		if e.Folder == folder {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := entries[out[i]], entries[out[j]]
		if !a.UsedAt.Equal(b.UsedAt) {
			return a.UsedAt.After(b.UsedAt)
		}
		return out[i] < out[j]
	})
	return out
}

// Note records that session name was used in folder at time at. Errors
// are the lock's, the write's, or (the new record written all the same)
// one saying a damaged record was moved aside.
func (r *Record) Note(name, folder string, at time.Time) error {
	return r.update(func(m map[string]Entry) { m[name] = Entry{Folder: folder, UsedAt: at.UTC()} })
}

// Rename moves old's entry to new (a renamed session keeps its folder).
func (r *Record) Rename(old, new string) error {
	return r.update(func(m map[string]Entry) {
		if e, ok := m[old]; ok {
			delete(m, old)
			m[new] = e
		}
	})
}

func (r *Record) update(change func(map[string]Entry)) error {
	if err := os.MkdirAll(r.home, 0o700); err != nil {
		return i18n.Errorf("recent: %w", err)
	}
	lock, err := storefile.NewLock(filepath.Join(r.home, ".recent.lock"), os.O_CREATE|os.O_RDWR)
	if err != nil {
		return i18n.Errorf("recent: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, 10*time.Millisecond); !ok {
		return i18n.Errorf("recent: lock %s: %v", lock.Path(), err)
	}
	defer lock.Unlock()
	m, err := r.Read()
	var moved error
	if errors.Is(err, ErrCorrupt) {
		broken := r.Path() + ".broken"
		if rerr := os.Rename(r.Path(), broken); rerr != nil {
			return i18n.Errorf("%w; it could not be moved aside: %v", err, rerr)
		}
		m, moved = map[string]Entry{}, i18n.Errorf("%w; moved it to %s and started a new one", err, broken)
	} else if err != nil {
		return err
	}
	change(m)
	trim(m)
	data, err := json.Marshal(document{Version: 1, Sessions: m})
	if err != nil {
		return i18n.Errorf("recent: %w", err)
	}
	if err := atomicfile.WriteFile(r.Path(), data); err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return i18n.Errorf("recent: write %s: %w", r.Path(), err)
	}
	return moved
}

// trim drops the least recently used entries past MaxEntries.
func trim(m map[string]Entry) {
	if len(m) <= MaxEntries {
		return
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return m[names[i]].UsedAt.Before(m[names[j]].UsedAt) })
	for _, n := range names[:len(m)-MaxEntries] {
		delete(m, n)
	}
}

// Folder is the canonical form of dir recorded and compared: absolute,
// with symbolic links resolved when they can be.
func Folder(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
