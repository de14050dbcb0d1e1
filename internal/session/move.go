// Delete, Fork and Rename: the verbs that remove a session file or give
// it another name, each under the session's lock.

package session

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Delete removes a session file, readable or not, under the session's lock
// (a write waiting for it then finds no file). ErrNotFound when absent; an
// error wrapping atomicfile.ErrNotDurable when the file is gone but its
// folder's fsync failed.
func (s *Store) Delete(name string) error {
	n, p, err := s.path(name)
	if err != nil {
		return err
	}
	return s.withMoveLocks(n, "", func() error {
		err := atomicfile.Remove(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return i18n.Errorf("%w: %q (no file %s)", ErrNotFound, n, p)
		case err != nil && !errors.Is(err, atomicfile.ErrNotDurable):
			return fmt.Errorf("session: delete %s: %w", p, err)
		}
		return err
	})
}

// Fork copies session src into a new session dst with a new identity
// (created now, revision restarted, no journal id) and returns the copy.
// src is not changed. ErrExists when dst exists.
func (s *Store) Fork(src, dst string) (*Session, error) {
	sess, err := s.Load(src)
	if err != nil {
		return nil, err
	}
	sess.CreatedAt, sess.Revision, sess.TranscriptID = time.Time{}, 0, ""
	if err := s.Create(dst, sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// Rename gives session old the name new, never replacing an existing
// session (ErrExists). The file moves atomically (atomicfile.Move; a
// sealed file is re-sealed for new, atomicfile.MoveWith) under the locks of
// both names: a write of old that returned before the move is in the file
// under new; one that comes after finds no file (SaveIf: a *ConflictError
// with Missing set; Save: old is created again). An error wrapping
// atomicfile.ErrNotDurable means the session is under new.
func (s *Store) Rename(old, new string) error {
	on, op, err := s.path(old)
	if err != nil {
		return err
	}
	nn, np, err := s.path(new)
	if err != nil {
		return err
	}
	if on == nn {
		return i18n.Errorf("%w: %q is already the name of that session", ErrExists, nn)
	}
	return s.withMoveLocks(on, nn, func() error {
		err := s.move(on, op, nn, np)
		if err == nil || errors.Is(err, atomicfile.ErrNotDurable) { // moved
			s.moveLink(on, nn)
		}
		return err
	})
}

// move is Rename's move of the file, under both names' locks.
func (s *Store) move(on, op, nn, np string) error {
	if sealed, err := s.renameSealed(on, op, nn, np); sealed {
		return err
	}
	err := moveKeepingMark(op, np)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return i18n.Errorf("%w: %q (no file %s)", ErrNotFound, on, op)
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%w: %q", ErrExists, nn)
	case err != nil:
		return fmt.Errorf("session: rename %s: %w", op, err)
	}
	afterLink()
	return nil
}
