package retention

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// markTimeout bounds how long MarkOpen waits for a pass that holds the
// marker (a pass holds it only while it moves one file).
const markTimeout = 5 * time.Second

// markerPath is the open marker of session name: locks/<name>.open, beside
// the session's lock (session.LocksDirName); builds before that folder kept
// it at sessions/.<name>.open (legacyMarkerPath, legacy.go).
func markerPath(home, name string) string {
	return filepath.Join(home, session.LocksDirName, name+".open")
}

// MarkOpen marks session name as open in this process until release is
// called: retention never removes it meanwhile. Call it before loading or
// creating the session you bind to, and release it when you unbind. Several
// processes may mark one session; release is safe to call more than once.
func MarkOpen(home, name string) (release func(), err error) {
	n, err := session.NormalizeName(name)
	if err != nil {
		return nil, err
	}
	if err := markersDir(home); err != nil {
		return nil, fmt.Errorf("retention: mark %q open: %w", n, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), markTimeout)
	defer cancel()
	lock, err := lockAt(ctx, markerPath(home, n), false, true)
	if err != nil {
		return nil, fmt.Errorf("retention: mark %q open: %w", n, err)
	}
	var once sync.Once
	return func() { once.Do(func() { unmark(lock) }) }, nil
}

// unmark releases a shared marker lock, removing the marker when no other
// process holds it (an exclusive lock is then granted at once).
func unmark(lock *flock.Flock) {
	if ok, err := lock.TryLock(); ok && err == nil && stillAt(lock) {
		os.Remove(lock.Path())
	}
	lock.Unlock()
}

// stillAt reports whether the file lock holds is still the file at its
// path.
func stillAt(lock *flock.Flock) bool {
	held, herr := lock.Stat()
	now, nerr := os.Lstat(lock.Path()) // a link there is not the lock file
	return herr == nil && nerr == nil && os.SameFile(held, now)
}

// lockAt locks the file at path (shared, or exclusive when exclusive is
// set) and returns once the locked file is still the one at path: a lock
// on a file another process removed meanwhile is dropped and taken again.
// With wait false it tries once (nil, nil when the lock is held
// elsewhere); with wait true it retries until ctx ends. The file is created
// (0600) when missing.
func lockAt(ctx context.Context, path string, exclusive, wait bool) (*flock.Flock, error) {
	for {
		lock, err := storefile.NewLock(path, os.O_CREATE|os.O_RDWR) // 0600
		if err != nil {
			return nil, err
		}
		var ok bool
		switch {
		case wait && exclusive:
			ok, err = lock.TryLockContext(ctx, 10*time.Millisecond)
		case wait:
			ok, err = lock.TryRLockContext(ctx, 10*time.Millisecond)
		case exclusive:
			ok, err = lock.TryLock()
		default:
			ok, err = lock.TryRLock()
		}
		if err != nil || !ok {
			lock.Close()
			return nil, err
		}
		if stillAt(lock) {
			return lock, nil
		}
		lock.Unlock()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// isOpen reports whether a live process holds session name's marker, or
// the marker an older build keeps in sessions/. It creates nothing: no
// marker means not open.
func isOpen(home, name string) bool {
	return heldMarker(markerPath(home, name)) || heldMarker(legacyMarkerPath(home, name))
}

// heldMarker reports whether a live process holds a lock on the marker at
// path; one that cannot be checked counts as held.
func heldMarker(path string) bool {
	lock, err := storefile.NewLock(path, os.O_RDONLY)
	ok := false
	if err == nil {
		ok, err = lock.TryLock()
	}
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist) // cannot tell: treat as open
	}
	lock.Unlock()
	return !ok
}

// Marker keeps the open mark of a surface's bound session in step with the
// binding: Set after every command that may bind, unbind or rebind.
type Marker struct {
	home    string
	mu      sync.Mutex
	name    string
	release func()
}

// NewMarker returns a Marker for the store under home, marking nothing yet.
func NewMarker(home string) *Marker { return &Marker{home: home} }

// Set marks name open and releases the previous mark; "" releases only.
// Setting the name already marked does nothing.
func (m *Marker) Set(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if name == m.name {
		return nil
	}
	if m.release != nil {
		m.release()
		m.name, m.release = "", nil
	}
	if name == "" {
		return nil
	}
	rel, err := MarkOpen(m.home, name)
	if err != nil {
		return err
	}
	m.name, m.release = name, rel
	return nil
}

// Close releases the current mark.
func (m *Marker) Close() { m.Set("") }
