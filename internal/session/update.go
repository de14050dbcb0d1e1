package session

import (
	"errors"
	"fmt"
)

// Errors of conditional writes, matched with errors.Is.
var (
	// ErrConflict: the stored revision is not the one the writer expected
	// (another process saved the session since). The error is a
	// *ConflictError carrying both revisions.
	ErrConflict = errors.New("session: changed by another process")
	// ErrLocked: another process held the session's lock longer than the
	// store's lock timeout.
	ErrLocked = errors.New("session: locked by another process")
)

// ConflictError is returned by SaveIf when the session's stored revision
// is not the expected one. errors.Is(err, ErrConflict) holds.
type ConflictError struct {
	// Name is the session.
	Name string
	// Expected is the revision the writer last saw; Current the revision
	// stored now (0 when the file is gone or was written without one).
	Expected, Current int64
	// Missing is true when no session file exists now.
	Missing bool
}

func (e *ConflictError) Error() string {
	now := fmt.Sprintf("it is at revision %d", e.Current)
	if e.Missing {
		now = "it was deleted"
	}
	return fmt.Sprintf("%v: %q: expected revision %d, %s", ErrConflict, e.Name, e.Expected, now)
}

// Unwrap makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// SaveIf saves sess under name like Save, but only when the stored
// revision is expect (0 for a session that does not exist yet, or a file
// written without a revision): the check and the write happen under the
// session's lock, so of two writers that saw the same revision exactly one
// succeeds. Otherwise nothing is written and the error is a *ConflictError
// (errors.Is ErrConflict) holding the current revision. sess.Revision is
// set to expect+1 on success. Other errors: those of Save, and ErrLocked.
func (s *Store) SaveIf(name string, sess *Session, expect int64) error {
	n, _, err := s.path(name)
	if err != nil {
		return err
	}
	if err := s.KeyRefusal(); err != nil {
		return err
	}
	return s.withLock(n, func() error {
		h, err := s.StatFile(n)
		missing := errors.Is(err, ErrNotFound)
		if err != nil && !missing {
			return err
		}
		if h.Revision != expect || missing && expect != 0 {
			return &ConflictError{Name: n, Expected: expect, Current: h.Revision, Missing: missing}
		}
		sess.Revision = expect
		return s.save(n, sess)
	})
}

// raiseRevision makes sure a last-writer-wins save of sess under n gives
// the file a revision above the stored one, so that every reader comparing
// revisions notices the write. The caller holds n's lock.
func (s *Store) raiseRevision(n string, sess *Session) {
	if h, err := s.StatFile(n); err == nil && h.Revision > sess.Revision {
		sess.Revision = h.Revision
	}
}

// Update reads session name and calls fn with it under the session's lock,
// then saves the session fn returns (as Save does, one revision above the
// stored one); fn returning nil writes nothing. cur is nil when no session
// of that name exists; fn may change it and return it. No other chatcli
// write of the session can happen between the read and the write. Errors:
// those of Load other than ErrNotFound, fn's own (returned as is), those
// of Save, and ErrLocked.
func (s *Store) Update(name string, fn func(cur *Session) (*Session, error)) error {
	n, _, err := s.path(name)
	if err != nil {
		return err
	}
	if err := s.KeyRefusal(); err != nil {
		return err
	}
	return s.withLock(n, func() error {
		cur, err := s.Load(n)
		var rev int64
		switch {
		case errors.Is(err, ErrNotFound):
			cur = nil
		case err != nil:
			return err
		default:
			rev = cur.Revision
		}
		next, err := fn(cur)
		if err != nil || next == nil {
			return err
		}
		next.Revision = rev
		return s.save(n, next)
	})
}
