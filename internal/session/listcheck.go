package session

import (
	"errors"

	"github.com/chatcli/chatcli/internal/storefile"
)

// onWholeCheck runs before checkedHeader reads a file whole after its
// header block (a seam: tests count the files read).
var onWholeCheck = func(string) {}

// errWholeRead is what readChecked answers, with blockOnly, for a file
// it would read whole: List reads those in a second pass, whose progress
// it can tell.
var errWholeRead = errors.New("session: the file must be read whole")

// checkedHeader reads the header of file p holding session name, for List
// and Stat alike, so that the two always agree. The fast path's header
// (the first block alone) stands only for a file whose first block is
// vouched for: one carrying this store's mark (writtenHere), or one this
// store last wrote or confirmed (s.vouched: the same inode, size, mtime
// and revision). Any other file is read on through its whole document,
// its messages checked as Load decodes them, through the same descriptor:
// only then do List, Stat and Load agree on a file that something else
// edited past its header block. When that read finds a file of chatcli's
// layout sound and its first block saying what the whole read did, the
// file is marked (markChecked), so no later listing or Stat reads it
// whole again while it stays as it is. Before reading a file whole, the
// list index answers for a file of the sessions folder whose entry it
// still holds (indexedHeader, by List's rules), as it does for List: where
// no mark can be set, Stat then costs no more than List whatever the
// history's length. A sealed file is read as header reads it.
func (s *Store) checkedHeader(name, p string) (Header, error) {
	return s.readChecked(name, p, false, true)
}

// readChecked is checkedHeader; with blockOnly, a file it would read
// whole is not read on, and the error is errWholeRead; without indexed,
// the list index is not asked (List asked it first).
func (s *Store) readChecked(name, p string, blockOnly, indexed bool) (Header, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h, whole, err := headerBlock(p, f, st)
	if errors.Is(err, errSealedFile) {
		return s.header(name, p)
	}
	if err != nil || !whole && (writtenHere(f, st) || s.vouched.known(p, st, h.Revision)) {
		return h, err
	}
	if blockOnly {
		return h, errWholeRead
	}
	if indexed {
		if ih, ok := s.indexedHeader(p, st); ok {
			return ih, ih.Err
		}
	}
	onWholeCheck(p)
	full, err := scanWhole(p, f, st, h)
	if err == nil && !whole && confirms(full, h) {
		markChecked(f, st, &full)
		s.vouched.set(p, idOf(st, h.Revision))
	}
	return full, err
}

// confirms reports whether full, the header a whole read of a file gave
// (scanWhole), says all that fast, the header its first block gave
// (decodeFast), says: the members before chat_history, message_count
// among them, are then the file's own, and its first block may stand for
// it.
func confirms(full, fast Header) bool {
	return full.Version == fast.Version && full.Title == fast.Title && full.Messages == fast.Messages &&
		full.CreatedAt.Equal(fast.CreatedAt) && full.UpdatedAt.Equal(fast.UpdatedAt) && full.Revision == fast.Revision &&
		full.TranscriptID == fast.TranscriptID && full.JournalPos == fast.JournalPos && sameLineage(full.Lineage, fast.Lineage)
}

// sameLineage reports whether a and b are the same lineage (or both none).
func sameLineage(a, b *Lineage) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Parent == b.Parent && a.ParentTranscript == b.ParentTranscript && a.At == b.At && a.Kind == b.Kind &&
		a.CreatedAt.Equal(b.CreatedAt)
}
