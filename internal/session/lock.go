package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

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

// LocksDirName is the folder, beside the sessions folder (under
// CHATCLI_HOME), that holds the sessions' lock files: ChatCLI lists every
// file of the sessions folder, so nothing of chatcli's but session files
// stays there (the retention package keeps its open markers here too).
const LocksDirName = "locks"

// LockPath is the lock file of a valid session name: locks/<name>.lock
// beside the sessions folder, an empty file (mode 0600) that writers of
// the session lock with flock(2). ErrInvalidName for an invalid name.
func (s *Store) LockPath(name string) (string, error) {
	n, _, err := s.path(name)
	if err != nil {
		return "", err
	}
	return s.lockPath(n), nil
}

// LegacyLockPath is where builds before the locks folder kept the lock of
// a valid session name: sessions/.<name>.lock. See sessionLock for how the
// two builds still exclude each other. ErrInvalidName for an invalid name.
func (s *Store) LegacyLockPath(name string) (string, error) {
	n, _, err := s.path(name)
	if err != nil {
		return "", err
	}
	return s.legacyLockPath(n), nil
}

// LocksDir is the folder of the session lock files of a store whose
// sessions folder is dir.
func LocksDir(dir string) string { return filepath.Join(filepath.Dir(dir), LocksDirName) }

func (s *Store) lockPath(n string) string { return filepath.Join(LocksDir(s.dir), n+lockFileExt) }

func (s *Store) legacyLockPath(n string) string {
	return filepath.Join(s.dir, "."+n+lockFileExt)
}

// sessionLock is a held session lock: the lock file under locks/ and,
// for the upgrade, the legacy one in sessions/. An older build locks only
// sessions/.<name>.lock (creating it), so a writer of this build takes that
// file too, after its own, and removes it before releasing it: the legacy
// file exists only while a write holds it (or an older build left it),
// and an older build waiting on it notices the removal (it checks that
// the locked file is still the one at the path, as this build does) and
// locks a new file, which the next writer of this build waits for. Writers
// of this build serialise on locks/ first, so only one at a time takes
// the legacy file.
type sessionLock struct {
	cur, legacy *flock.Flock
}

// Path is the lock file under locks/.
func (l *sessionLock) Path() string { return l.cur.Path() }

// Unlock removes the legacy file (when it is still the one held) and
// releases both locks, the legacy one first.
func (l *sessionLock) Unlock() {
	if l.legacy != nil {
		if sameFile(l.legacy) {
			os.Remove(l.legacy.Path())
		}
		l.legacy.Unlock()
	}
	l.cur.Unlock()
}

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
	var held []*sessionLock
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Unlock()
		}
	}()
	var goneLock *sessionLock
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
	if sameFile(goneLock.cur) { // moved, durably or not
		os.Remove(goneLock.cur.Path())
	}
	return err
}

// lock takes the exclusive lock of session n (sessionLock: its file under
// locks/, then the legacy one), waiting with a growing back-off up to the
// timeout for both together.
func (s *Store) lock(n string) (*sessionLock, error) {
	s.locks.mu.Lock()
	timeout := s.locks.timeout
	s.locks.mu.Unlock()
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	start := time.Now()
	deadline := start.Add(timeout)
	if err := s.locksDir(); err != nil {
		return nil, fmt.Errorf("session: lock %q: %w", n, err)
	}
	cur, err := lockWait(n, s.lockPath(n), deadline, timeout)
	if err != nil {
		return nil, err
	}
	legacy, err := lockWait(n, s.legacyLockPath(n), deadline, timeout)
	if err != nil {
		cur.Unlock()
		return nil, err
	}
	s.count(time.Since(start))
	return &sessionLock{cur: cur, legacy: legacy}, nil
}

// locksDir makes sure the locks folder is a folder of the store (mode
// 0700), creating it when missing: a link there, to a folder elsewhere,
// is refused (storefile.ErrNotRegular) and nothing is created through it.
func (s *Store) locksDir() error {
	dir := LocksDir(s.dir)
	err := storefile.Dir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.Mkdir(dir, 0o700); errors.Is(err, fs.ErrExist) {
			err = storefile.Dir(dir) // made meanwhile
		}
	}
	return err
}

// lockWait locks the file at path (created 0600 when missing) for session
// n, retrying with a growing back-off until deadline. A lock file removed
// by a move (withMoveLocks) or a release (sessionLock) while this process
// waited on it is detected (it is no longer the file at the path) and the
// lock is taken again on the new file. Errors: ErrLocked after the
// deadline, naming path; one wrapping fs.ErrNotExist when path's folder is
// missing; storefile's refusal of a path that is not a regular file.
func lockWait(n, path string, deadline time.Time, timeout time.Duration) (*flock.Flock, error) {
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
				return lock, nil
			}
			lock.Unlock() // removed meanwhile: lock the new file
			continue
		}
		lock.Close()
		if time.Now().After(deadline) {
			return nil, i18n.Errorf("%w: session %q: another process held %s for more than %s; it is still writing or is stuck (the lock goes with the process)",
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
