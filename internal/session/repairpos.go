// The journal positions of the files naming a journal whose lines moved
// (chatcli storage verify --repair).

package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// errNotPlaced is wrapped by PlaceJournal's error for a file whose
// journal_pos it could not edit in place (not in chatcli's layout).
var errNotPlaced = errors.New("session: journal_pos not in chatcli's layout")

// PlaceJournal gives every session file naming journal id (transcript_id),
// in the sessions folder and in the trash, plaintext or sealed, the
// journal position it names as the journal, transcripts/<id>.jsonl under
// journals, now has it (journal.Place): after a repair, which leaves
// damaged lines out, the record numbers still name a position but its
// byte offset and line are stale. A position the journal can no longer
// place (the record it follows was left out, with every later one:
// journal.ErrPosLost) is removed, so the file stands on its own, as a file
// without journal_pos does (doc.go, "The journal tail"). Only the
// journal_pos member changes, in the document and in a sealed file's
// header (re-sealed under the store's key); the revision and times stay.
// Each file is rewritten under its session's lock (a trashed copy under
// the lock of the name Restore would take) in one atomic write
// (atomicfile.WriteFile); the trash goes first, so a copy restored
// meanwhile is met in the sessions folder.
//
// It returns the number of files rewritten. Files are skipped, and their
// errors joined in err, when they cannot be read or opened with the
// store's key (ErrEncrypted, seal.ErrWrongKey), when the journal cannot be
// read, or when their journal_pos is not in chatcli's layout (a file
// edited by another program; readers then place it themselves, as a
// stale position is read).
func (s *Store) PlaceJournal(journals, id string) (placed int, err error) {
	if !journal.ValidID(id) {
		return 0, fmt.Errorf("session: invalid journal id %q", id)
	}
	jp := journal.Path(journals, id)
	trash, err := s.TrashList()
	errs := []error{err}
	for _, e := range trash {
		if e.Err != nil || e.TranscriptID == id { // read again under the lock
			errs = append(errs, s.placeFile(e.Name, e.Path, jp, id, &placed))
		}
	}
	list, err := s.List() // after the trash: a copy restored meanwhile is listed here
	errs = append(errs, err)
	for _, h := range list {
		if h.Err != nil && !errors.Is(h.Err, storefile.ErrNotRegular) || h.TranscriptID == id { // never opened: not a file
			errs = append(errs, s.placeFile(h.Name, filepath.Join(s.dir, h.Name+fileExt), jp, id, &placed))
		}
	}
	return placed, errors.Join(errs...)
}

// placeFile is PlaceJournal for the file p holding session n, under n's
// lock; jp is the journal's path. It adds 1 to *placed when it rewrote p.
func (s *Store) placeFile(n, p, jp, id string, placed *int) error {
	lock, err := s.lock(n)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	data, err := storefile.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) || err == nil && seal.IsChatCLIEnvelope(data) {
		return nil // moved meanwhile; ChatCLI's envelope, no journal of ours
	}
	if err != nil {
		return fmt.Errorf("session: read %s: %w", p, err)
	}
	var h *sealedHeader
	var pos *journal.Pos // a sealed header's
	body, sealed := data, IsSealedFile(data)
	if sealed {
		var r io.Reader
		if h, r, err = openBody(s.key, n, bytes.NewReader(data), int64(len(data))); err == nil {
			body, err = io.ReadAll(r)
		}
		if err != nil {
			return s.containerError(n, p, err)
		}
		pos = h.JournalPos
	}
	var doc Header
	_ = doc.decodeFast(bytes.NewReader(body)) // nothing of a file in another layout
	if doc.JournalPos.Seq > 0 {
		pos = &doc.JournalPos
	}
	if pos == nil || !sealed && doc.TranscriptID != id || sealed && h.TranscriptID != id {
		return nil
	}
	np, err := journal.Place(jp, s.key, *pos)
	if errors.Is(err, journal.ErrPosLost) {
		np, err = journal.Pos{}, nil
	}
	if err != nil {
		return fmt.Errorf("session: %s: %w", p, err)
	}
	var to *journal.Pos // none: removed
	if np.Seq > 0 {
		to = &np
	}
	if np == *pos && (!sealed || h.JournalPos != nil && *h.JournalPos == np) {
		return nil
	}
	if doc.JournalPos.Seq > 0 {
		if body = editJournalPos(body, to); body == nil {
			return fmt.Errorf("%w: %s", errNotPlaced, p)
		}
	}
	if sealed {
		if err := s.KeyRefusal(); err != nil {
			return err
		}
		h.JournalPos = to
		_, err = atomicfile.WriteStatWith(p, func(w io.Writer) error {
			return writeContainer(w, s.key, n, h, bytes.NewReader(body), nil)
		})
	} else {
		err = atomicfile.WriteFile(p, body)
	}
	if err == nil || errors.Is(err, atomicfile.ErrNotDurable) {
		*placed++
	}
	return err
}
