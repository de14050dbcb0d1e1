package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// DefaultLockTimeout is how long a write waits for another process's write
// of the same session to finish before failing with ErrLocked. A write
// holds the lock only while it checks the stored revision and replaces the
// file (milliseconds), so waiting this long means a process is stuck.
const DefaultLockTimeout = 10 * time.Second

// lockFileExt ends the name of a session's lock file.
const lockFileExt = ".lock"

// Bounds of the back-off between attempts to take a held lock.
const (
	lockPollMin = 200 * time.Microsecond
	lockPollMax = 5 * time.Millisecond
)

// LockStats sums the time this store's writes spent waiting for session
// locks, for performance checks (CHATCLI_DEBUG_LOCKSTATS); the journal's
// locks are counted in the same form.
type LockStats = journal.LockStats

// lockState is the store's lock settings and counters; the zero value
// uses DefaultLockTimeout.
type lockState struct {
	mu      sync.Mutex
	timeout time.Duration
	stats   LockStats
}

// SetLockTimeout sets how long writes wait for a session's lock; d <= 0
// restores DefaultLockTimeout.
func (s *Store) SetLockTimeout(d time.Duration) {
	s.locks.mu.Lock()
	s.locks.timeout = d
	s.locks.mu.Unlock()
}

// LockStats returns the lock waits of this store's writes so far.
func (s *Store) LockStats() LockStats {
	s.locks.mu.Lock()
	defer s.locks.mu.Unlock()
	return s.locks.stats
}

// LockPath is the lock file of a valid session name:
// sessions/.<name>.lock, an empty file (mode 0600) that writers of the
// session lock with flock(2). ErrInvalidName for an invalid name.
func (s *Store) LockPath(name string) (string, error) {
	n, _, err := s.path(name)
	if err != nil {
		return "", err
	}
	return s.lockPath(n), nil
}

func (s *Store) lockPath(n string) string { return filepath.Join(s.dir, "."+n+lockFileExt) }

// withLock runs fn while holding the exclusive lock of the normalized
// session name n. It fails with ErrLocked when the lock is not free within
// the store's timeout.
func (s *Store) withLock(n string, fn func() error) error {
	lock, err := s.lock(n)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	return fn()
}

// withMoveLocks runs fn, which moves or removes the file of session gone
// (to session to, "" for none), holding the locks of both names, taken in
// sorted order so that two moves of one pair never wait on each other. A
// write of gone that landed before fn is in the moved file; one that comes
// after finds no file (SaveIf: a Missing conflict; Save: a new file). When
// fn succeeds (or its error wraps atomicfile.ErrNotDurable: the file moved),
// gone's lock file is removed before it is released: a writer waiting on
// it notices that and locks a new file.
func (s *Store) withMoveLocks(gone, to string, fn func() error) error {
	names := []string{gone}
	if to != "" && to != gone {
		names = append(names, to)
		sort.Strings(names)
	}
	var held []*flock.Flock
	defer func() {
		for _, l := range held {
			l.Unlock()
		}
	}()
	var goneLock *flock.Flock
	for _, n := range names {
		l, err := s.lock(n)
		if err != nil {
			return err
		}
		held = append(held, l)
		if n == gone {
			goneLock = l
		}
	}
	err := fn()
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	if sameFile(goneLock) { // moved, durably or not
		os.Remove(goneLock.Path())
	}
	return err
}

// lock takes the exclusive lock of session n, waiting with a growing
// back-off up to the timeout. A lock file removed by a move (withMoveLocks) while this
// process waited on it is detected (it is no longer the file at the path)
// and the lock is taken again on the new file.
func (s *Store) lock(n string) (*flock.Flock, error) {
	s.locks.mu.Lock()
	timeout := s.locks.timeout
	s.locks.mu.Unlock()
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	path := s.lockPath(n)
	start := time.Now()
	deadline := start.Add(timeout)
	poll := lockPollMin
	for {
		lock, err := storefile.NewLock(path, os.O_CREATE|os.O_RDWR)
		if err != nil {
			return nil, fmt.Errorf("session: lock %q: %w", n, err)
		}
		ok, err := lock.TryLock()
		if err != nil {
			lock.Close()
			return nil, fmt.Errorf("session: lock %q (%s): %w", n, path, err)
		}
		if ok {
			if sameFile(lock) {
				s.count(time.Since(start))
				return lock, nil
			}
			lock.Unlock() // removed meanwhile: lock the new file
			continue
		}
		lock.Close()
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: session %q: another process held %s for more than %s; it is still writing or is stuck (the lock goes with the process)",
				ErrLocked, n, path, timeout)
		}
		time.Sleep(poll)
		poll = min(2*poll, lockPollMax)
	}
}

// count records one lock taken after waiting wait.
func (s *Store) count(wait time.Duration) {
	s.locks.mu.Lock()
	defer s.locks.mu.Unlock()
	st := &s.locks.stats
	st.Acquired++
	if wait > lockPollMin {
		st.Contended++
	}
	st.TotalWait += wait
	st.MaxWait = max(st.MaxWait, wait)
}

// sameFile reports whether the file lock holds is still the file at its
// path.
func sameFile(lock *flock.Flock) bool {
	held, herr := lock.Stat()
	now, nerr := os.Lstat(lock.Path()) // a link there is not the lock file
	return herr == nil && nerr == nil && os.SameFile(held, now)
}
