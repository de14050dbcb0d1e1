// The journal positions of the files naming a journal whose lines moved
// (chatcli storage verify --repair).

package session

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

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
	var errs []error
	place := func(n, p string) {
		err := s.withLock(n, func() error {
			changed, err := s.placeFile(n, p, journal.Path(journals, id), id)
			if changed {
				placed++
			}
			return err
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	if trash, terr := s.TrashList(); terr == nil {
		for _, e := range trash {
			if e.TranscriptID == id || e.Err != nil {
				place(e.Name, e.Path)
			}
		}
	} else {
		errs = append(errs, terr)
	}
	entries, derr := os.ReadDir(s.dir)
	if derr != nil {
		errs = append(errs, fmt.Errorf("session: list %s: %w", s.dir, derr))
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), fileExt)
		if !ok || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		n, p, perr := s.path(name)
		if perr != nil {
			continue
		}
		if h, herr := s.header(n, p); herr == nil && h.TranscriptID != id {
			continue // read again under the lock when it names the journal, or cannot be read here
		}
		place(n, p)
	}
	return placed, errors.Join(errs...)
}

// placeFile is PlaceJournal for the file p holding session n, whose lock
// the caller holds; jp is the journal's path. changed says p was
// rewritten.
func (s *Store) placeFile(n, p, jp, id string) (changed bool, err error) {
	data, err := storefile.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil // moved meanwhile
	case err != nil:
		return false, fmt.Errorf("session: read %s: %w", p, err)
	case seal.IsChatCLIEnvelope(data):
		return false, nil // ChatCLI's: no journal of ours
	case !IsSealedFile(data):
		out, changed, err := s.placedDoc(p, jp, id, data)
		if !changed || err != nil {
			return false, err
		}
		return writePlaced(p, out)
	}
	h, body, err := openContainer(s.key, n, data)
	if err != nil {
		return false, s.containerError(n, p, err)
	}
	if h.TranscriptID != id {
		return false, nil
	}
	body, changed, err = s.placedDoc(p, jp, id, body)
	if err != nil {
		return false, err
	}
	var doc Header
	var pos *journal.Pos
	switch _ = doc.decodeFast(bytes.NewReader(body)); {
	case doc.JournalPos.Seq > 0: // the document's, placed
		pos = &doc.JournalPos
	case changed: // removed from the document
	case h.JournalPos != nil: // the header's alone
		placed, err := journal.Place(jp, s.key, *h.JournalPos)
		if err != nil && !errors.Is(err, journal.ErrPosLost) {
			return false, fmt.Errorf("session: %s: %w", p, err)
		}
		if err == nil {
			pos = &placed
		}
	}
	if !changed && samePos(pos, h.JournalPos) {
		return false, nil
	}
	if err := s.KeyRefusal(); err != nil {
		return false, err
	}
	h.JournalPos = pos
	out, err := sealContainer(s.key, n, h, body)
	if err != nil {
		return false, fmt.Errorf("session: seal %s: %w", p, err)
	}
	return writePlaced(p, out)
}

// writePlaced replaces file p with data (atomicfile.WriteFile); changed
// says it did, its folder's fsync aside (atomicfile.ErrNotDurable).
func writePlaced(p string, data []byte) (changed bool, err error) {
	err = atomicfile.WriteFile(p, data)
	return err == nil || errors.Is(err, atomicfile.ErrNotDurable), err
}

// placedDoc returns doc, the document of file p, with its journal_pos as
// the journal at jp now has it, or without it when the journal no longer
// holds the record it follows; changed is false (doc as it is) when doc
// names no position in journal id, or one the journal has where it says.
func (s *Store) placedDoc(p, jp, id string, doc []byte) (out []byte, changed bool, err error) {
	var h Header
	if h.decodeFast(bytes.NewReader(doc)) != nil || h.TranscriptID != id || h.JournalPos.Seq <= 0 {
		return doc, false, nil
	}
	placed, err := journal.Place(jp, s.key, h.JournalPos)
	switch {
	case errors.Is(err, journal.ErrPosLost):
		out = withoutJournalPos(doc)
	case err != nil:
		return doc, false, fmt.Errorf("session: %s: %w", p, err)
	case placed == h.JournalPos:
		return doc, false, nil
	default:
		out = withJournalPos(doc, placed)
	}
	if bytes.Equal(out, doc) {
		return doc, false, fmt.Errorf("%w: %s", errNotPlaced, p)
	}
	return out, true, nil
}

// withoutJournalPos returns doc, a document in chatcli's layout with a
// journal_pos member before chat_history, without that member; doc as it
// is when it is not in that form.
func withoutJournalPos(doc []byte) []byte {
	head := doc[:min(len(doc), headerBufBytes)]
	end := bytes.Index(head, chatHistoryKey)
	if end < 0 {
		return doc
	}
	at := bytes.Index(head[:end], journalPosKey)
	if at < 0 {
		return doc
	}
	to := bytes.IndexByte(head[at+len(journalPosKey):end], '}')
	if to < 0 {
		return doc
	}
	to += at + len(journalPosKey) + 1
	out := append(append(make([]byte, 0, len(doc)-(to-at)), doc[:at]...), doc[to:]...)
	var w headMembers
	if i := bytes.Index(out[:min(len(out), headerBufBytes)], chatHistoryKey); i < 0 || !decodeHead(out[:i], &w) || w.JournalPos.Seq != 0 {
		return doc
	}
	return out
}

// samePos reports whether a and b are the same position, or both none.
func samePos(a, b *journal.Pos) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
