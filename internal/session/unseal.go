package session

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// DecryptFile writes session file path (of session name, in the sessions
// folder or the trash) back as plaintext: a sealed container opened with
// the store's key, or a file in ChatCLI's envelope opened with its key
// (SetChatCLIKey), is replaced by the document it holds (its journal_pos
// placed in its journal, decrypted first: placeJournalPos), in one atomic
// write, under the session's lock for a file of the sessions folder. It
// reports whether the file changed (false for a plaintext file). Errors:
// the store has no key (seal.ErrBadKey); the file does not open with it
// (the container errors: wrong key, damaged, too new), the file
// untouched; an error wrapping atomicfile.ErrNotDurable comes with changed
// true. The plaintext file written gets the store's mark (written.go) once
// its header block is found to say what its whole document says, so the
// next listing reads only that block. The store keeps sealing what it
// writes while it has a key: the caller unsets it afterwards.
func (s *Store) DecryptFile(name, path string) (changed bool, err error) {
	if n, p, perr := s.path(name); perr == nil && p == path {
		err = s.withLock(n, func() error {
			changed, err = s.decryptFile(name, path)
			return err
		})
		return changed, err
	}
	return s.decryptFile(name, path)
}

func (s *Store) decryptFile(name, path string) (bool, error) {
	if s.key.IsZero() {
		return false, i18n.Errorf("%w: decrypting needs the key in CHATCLI_ENCRYPTION_KEY", seal.ErrBadKey)
	}
	f, st, err := storefile.Open(path)
	if err != nil {
		return false, fmt.Errorf("session: read %s: %w", path, err)
	}
	defer f.Close()
	if sealedAt(f) {
		// Streamed: the document is written as its segments authenticate,
		// and the file is replaced only once its last one did.
		h, body, err := openBody(s.key, name, f, st.Size())
		var doc io.Reader
		if err == nil {
			_, doc, err = s.placedBody(h, body)
		}
		if err == nil {
			_, err = atomicfile.WriteStatWith(path, func(w io.Writer) error { _, err := io.Copy(w, doc); return err })
		}
		if serr := s.containerError(name, path, err); serr != err {
			return false, serr
		}
	} else if !startsChatCLIEnvelope(path) {
		return false, nil // plaintext
	} else {
		data, err := readFrom(f)
		if err != nil {
			return false, fmt.Errorf("session: read %s: %w", path, err)
		}
		if !seal.IsChatCLIEnvelope(data) {
			return false, nil
		}
		body, err := s.openChatCLI(name, path, data)
		if err != nil {
			return false, err
		}
		err = atomicfile.WriteFile(path, body)
	}
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return false, err
	}
	s.forgetListed(filepath.Base(path))
	// Marked once checked as List checks it: a body sealed from a file
	// that another program edited may hold a message_count its messages
	// do not.
	_, _ = s.checkedHeader(name, path)
	return true, err
}
