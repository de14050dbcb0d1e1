package session

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// LegacyFileName is the name ChatCLI gave a session saved in the working
// directory before the store existed: .chatcli_session_<name>.json.
func LegacyFileName(name string) string { return ".chatcli_session_" + name + fileExt }

// ImportLegacy looks for LegacyFileName(name) in dir and, when it exists and
// no session of that name does, copies it into the store as name and
// returns it with the path it came from. ErrNotFound when there is no such
// file; the legacy file itself is left in place. An error wrapping
// atomicfile.ErrNotDurable comes with the session: it is imported.
func (s *Store) ImportLegacy(dir, name string) (*Session, string, error) {
	n, _, err := s.path(name)
	if err != nil {
		return nil, "", err
	}
	src := filepath.Join(dir, LegacyFileName(n))
	data, err := storefile.ReadFile(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("%w: %q", ErrNotFound, n)
	}
	if err != nil {
		return nil, "", fmt.Errorf("session: read %s: %w", src, err)
	}
	sess, err := Decode(data)
	if err != nil {
		return nil, "", classify(src, err)
	}
	if err := s.Create(n, sess); err != nil {
		if errors.Is(err, atomicfile.ErrNotDurable) {
			return sess, src, err // imported all the same
		}
		return nil, "", err
	}
	return sess, src, nil
}
