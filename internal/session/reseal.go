// Re-sealing: rename of a sealed session, and rekeying a file in place.

package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// renameSealed moves the sealed file op (session on) to np (session nn),
// re-sealed under the new name, since an envelope opens only under the name
// it was sealed for (atomicfile.MoveWith: the new file is created, then
// the old one unlinked), streaming the body from one to the other. The
// caller holds both names' locks. It reports false, doing nothing, when op
// is not a sealed file (or cannot be read: the caller's move reports that).
func (s *Store) renameSealed(on, op, nn, np string) (bool, error) {
	f, st, err := storefile.Open(op)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	if !sealedAt(f) {
		return false, nil
	}
	h, body, err := openBody(s.key, on, f, st.Size())
	if err == nil {
		err = s.KeyRefusal()
	}
	if err == nil { // the whole body is read, and so authenticated, before np is published
		err = atomicfile.MoveWith(op, np, func(w io.Writer) error { return writeContainer(w, s.key, nn, h, body, nil) })
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return true, fmt.Errorf("%w: %q", ErrExists, nn)
	case errors.Is(err, ErrKeyRefused):
		return true, err
	case err != nil:
		if serr := s.containerError(on, op, err); serr != err {
			return true, serr
		}
		return true, fmt.Errorf("session: rename %s: %w", op, err)
	}
	afterLink()
	return true, nil
}

// RekeyFile re-seals the session file at path, holding session name (a
// file of the sessions folder or of the trash), under the store's key: a
// file that opens with the store's key is left alone (changed false); a
// sealed file is opened with old; a plaintext file is sealed as it is (its
// document becomes the body verbatim but for its journal_pos). The
// sealed header, which listing reads, and the document name the file's
// journal position as its journal, rekeyed first, now has it
// (placeJournalPos), so that listing counts the journal's tail and load
// reads only the tail. The file is replaced in one atomic
// write (atomicfile.WriteFile), so at every moment it opens with old or
// with the store's key. Errors: seal.ErrBadKey when the store has no key;
// one wrapping atomicfile.ErrNotDurable with changed true (the file is
// re-sealed, its folder's fsync failed);
// the errors of Load (ErrCorrupt, ErrTooNew, a wrong-key error wrapping
// seal.ErrWrongKey when neither key opens it), the file untouched.
//
// A file of the sessions folder is rekeyed under the session's lock, so a
// save running at the same moment is never overwritten, and its entry in
// the list index (which holds its title in plaintext) is removed.
func (s *Store) RekeyFile(name, path string, old seal.Key) (changed bool, err error) {
	if n, p, perr := s.path(name); perr == nil && p == path {
		err = s.withLock(n, func() error {
			changed, err = s.rekeyFile(name, path, old)
			return err
		})
		if changed {
			s.forgetListed(filepath.Base(p))
		}
		return changed, err
	}
	return s.rekeyFile(name, path, old)
}

// rekeyFile is RekeyFile without the lock.
func (s *Store) rekeyFile(name, path string, old seal.Key) (changed bool, err error) {
	if s.key.IsZero() {
		return false, i18n.Errorf("%w: rekey needs the new key in CHATCLI_ENCRYPTION_KEY", seal.ErrBadKey)
	}
	f, st, err := storefile.Open(path)
	if err != nil {
		return false, fmt.Errorf("session: read %s: %w", path, err)
	}
	defer f.Close()
	if sealedAt(f) {
		// Left alone when it opens, body and all, with the store's key;
		// else opened with old, its body streamed into the new file, so
		// that memory is a segment of each stream whatever the session's
		// size (a version-1 body is read whole, as it must be to be
		// authenticated).
		err = checkBody(s.key, name, f, st.Size())
		if err == nil {
			return false, nil
		} else if !errors.Is(err, seal.ErrWrongKey) {
			return false, s.containerError(name, path, err)
		}
		if old.IsZero() {
			old = s.key // gives the wrong-key error below
		}
		h, body, err := openBody(old, name, f, st.Size())
		if err == nil { // the whole body is read, and so authenticated, before path is replaced
			changed, err = s.writeRekeyed(name, path, h, body)
		}
		return changed, s.containerError(name, path, err)
	}
	data, err := readFrom(f)
	if err != nil {
		return false, fmt.Errorf("session: read %s: %w", path, err)
	}
	var h *sealedHeader
	body := data
	if seal.IsChatCLIEnvelope(data) {
		if h, body, err = s.openChatCLIForSeal(name, path, data); err != nil {
			return false, err
		}
	} else {
		ph, err := readHeader(path)
		if err != nil {
			return false, err
		}
		if err := checkDocument(data); err != nil {
			return false, classify(path, err)
		}
		// The sealed header says what the whole document holds, as List
		// and Load read it, not what its first block claims: a file
		// edited by hand may count one message fewer than it holds.
		full := Header{Version: 1, Messages: -1}
		if err := full.scan(bytes.NewReader(data)); err != nil {
			return false, classify(path, err)
		}
		if full.UpdatedAt.IsZero() {
			full.UpdatedAt = ph.UpdatedAt
		}
		ph = full
		h = &sealedHeader{Version: ph.Version, Title: ph.Title, CreatedAt: ph.CreatedAt, UpdatedAt: ph.UpdatedAt,
			Revision: ph.Revision, MessageCount: max(ph.Messages, 0), TranscriptID: ph.TranscriptID, Lineage: ph.Lineage}
		if ph.JournalPos.Seq > 0 {
			h.JournalPos = &ph.JournalPos
		}
	}
	return s.writeRekeyed(name, path, h, bytes.NewReader(body))
}

// writeRekeyed replaces path with the sealed file of session name under
// the store's key, from header h and the document read from body, its
// journal position placed first (placedBody). It reports whether path
// changed: true with an error wrapping atomicfile.ErrNotDurable too.
func (s *Store) writeRekeyed(name, path string, h *sealedHeader, body io.Reader) (bool, error) {
	pos, doc, err := s.placedBody(h, body)
	if err != nil {
		return false, err
	}
	h.JournalPos = pos
	_, err = atomicfile.WriteStatWith(path, func(w io.Writer) error { return writeContainer(w, s.key, name, h, doc, nil) })
	if err != nil {
		return errors.Is(err, atomicfile.ErrNotDurable), err // not durable: rekeyed all the same
	}
	return true, nil
}
