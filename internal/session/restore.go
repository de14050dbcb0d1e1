package session

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Restore moves the newest trashed copy of session name back into the
// store, under the session's lock as Trash moves it out: a save of name
// under way finishes first (Restore then finds the session and refuses),
// and one that comes after finds the restored file. ErrExists when a
// session of that name exists (rename or delete it first); ErrNotFound
// when the trash holds no copy of name; ErrLocked on the lock's timeout.
// A name only ChatCLI's rule allows (con, a..b: see Name) is restored
// when the trash holds a copy of it, as its file would open once back.
func (s *Store) Restore(name string) error {
	n, p, err := s.path(name)
	if err != nil && chatcliName(name) && s.inTrash(name) {
		n, p, err = name, filepath.Join(s.dir, name+fileExt), nil
	}
	if err != nil {
		return err
	}
	return s.withLock(n, func() error { return s.restore(n, p) })
}

// inTrash reports whether the trash holds a copy of session name.
func (s *Store) inTrash(name string) bool {
	list, _ := s.TrashList()
	for _, e := range list {
		if e.Name == name {
			return true
		}
	}
	return false
}

// restore is Restore for a caller holding the lock of session n (file p).
func (s *Store) restore(n, p string) error {
	list, err := s.TrashList()
	if err != nil {
		return err
	}
	var newest *TrashEntry
	for i, e := range list {
		if e.Name == n && (newest == nil || newer(e, *newest)) {
			newest = &list[i]
		}
	}
	if newest == nil {
		return i18n.Errorf("%w: %q is not in the trash (%s)", ErrNotFound, n, s.TrashDir())
	}
	err = moveKeepingMark(newest.Path, p)
	switch {
	case errors.Is(err, fs.ErrExist):
		return i18n.Errorf("%w: %q; rename or delete it before restoring the trashed copy", ErrExists, n)
	case err != nil:
		return fmt.Errorf("session: restore %s: %w", newest.Path, err)
	}
	return nil
}

func newer(a, b TrashEntry) bool {
	if !a.TrashedAt.Equal(b.TrashedAt) {
		return a.TrashedAt.After(b.TrashedAt)
	}
	return a.Seq > b.Seq
}
