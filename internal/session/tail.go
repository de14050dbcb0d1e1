// The session file as the journal's snapshot: what Load and the headers
// add from the journal records after a file's journal_pos (doc.go, "The
// journal tail").

package session

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// SetJournalDir names the folder of the journals (transcripts/), so that
// Load, Stat and List add to a file the records its journal holds after
// the file's journal_pos; "" (the default, and the journal turned off)
// reads files as they are.
func (s *Store) SetJournalDir(dir string) { s.journalDir = dir }

// JournalDir is the folder SetJournalDir named.
func (s *Store) JournalDir() string { return s.journalDir }

// tail is what a journal holds after a file's position.
type tail struct {
	path     string
	recs     []journal.Record
	end      journal.Pos // the position after recs
	warnings []journal.Warning
}

// readTail reads the records of the journal with this transcript id after
// position pos (journal.ReadAfter). ok is false when there is nothing to
// read: the file names no journal position, or its journal is missing.
func (s *Store) readTail(id string, pos journal.Pos) (t tail, ok bool, err error) {
	return s.readTailIn(id, pos, dirHandle{dir: s.journalDir, fd: -1}, 0)
}

// readTailIn is readTail with the journal's size taken through journals,
// a handle on the journal folder, for a file whose mtime was fileNanos
// (Unix nanoseconds; 0 when unknown) when its header was read. ok is also
// false, the journal not opened, when the journal is exactly as long as
// the position says and its mtime is not later than the file's: nothing
// was appended after the position, and the journal was not rewritten
// since the file was (a repair, which leaves lines out, can make a
// journal exactly that long with records after the position; the
// rewrite's new file is written after the session file that named the
// old offset, and PlaceJournal rewrites that file after it). Equal times
// count as older: a snapshot written just after its turn's append shares
// the append's clock tick more often than not, and would otherwise open
// its journal at every listing; only a rewrite within the tick of the
// file's own write, of a file PlaceJournal did not place again, escapes.
// Otherwise ReadAfter tells, checking a position at the journal's end.
func (s *Store) readTailIn(id string, pos journal.Pos, journals dirHandle, fileNanos int64) (t tail, ok bool, err error) {
	if s.journalDir == "" || pos.Seq <= 0 || !journal.ValidID(id) {
		return t, false, nil
	}
	// The journal's own stat, not what a link there names: a link or other
	// non-regular file goes on to ReadAfter, which refuses it.
	st, found := journals.stamp(journal.Path("", id))
	if !found || st.regular && st.size == pos.Offset && fileNanos > 0 && st.mtimeNanos <= fileNanos {
		return t, false, nil
	}
	t.path = journal.Path(s.journalDir, id)
	t.recs, t.end, t.warnings, err = journal.ReadAfter(t.path, s.key, pos)
	return t, true, err
}

// applyTail brings sess, as decoded from its file, up to date with the
// records its journal holds after sess.JournalPos: message records append
// their message, a rewrite record sets the history to the messages it
// names (from the history so far, the tail, or else the whole journal),
// and the checkpoint bookkeeping of the records (a whole list, or one
// checkpoint added to the file's list) gives the checkpoints
// (journal.CheckpointList).
// sess.JournalPos becomes the position after the last record, Tail counts
// the records and UpdatedAt is the last record's time when later.
func (s *Store) applyTail(sess *Session) error {
	t, ok, err := s.readTail(sess.TranscriptID, sess.JournalPos)
	if !ok {
		return nil
	}
	recs, end, p := t.recs, t.end, t.path
	sess.JournalWarnings = t.warnings
	if err != nil {
		return fmt.Errorf("session: journal %s: %w", p, err)
	}
	if len(recs) == 0 {
		// The lines moved (rekeyed, repaired) with nothing after the
		// position: the file's position is stale, and the next snapshot
		// names the right one.
		sess.PosMoved = end.Offset != sess.JournalPos.Offset
		sess.JournalPos = end
		return nil
	}
	var byHash map[string]message.Message // filled at the first rewrite
	cps, cpsChanged := journal.NewCheckpointList(sess.Checkpoints), false
	for _, r := range recs {
		if cps.Apply(&r) {
			cpsChanged = true
		}
		switch r.Type {
		case journal.TypeMessage:
			sess.History = append(sess.History, *r.Message)
			if byHash != nil {
				byHash[r.Hash] = *r.Message
			}
		case journal.TypeRewrite:
			if byHash == nil {
				byHash = map[string]message.Message{}
				for i, h := range journal.HashHistory(sess.History) {
					byHash[h] = sess.History[i]
				}
			}
			h, err := rewritten(p, s, r.Hashes, byHash)
			if err != nil {
				return err
			}
			sess.History = h
		}
		if r.At.After(sess.UpdatedAt) {
			sess.UpdatedAt = r.At
		}
	}
	if cpsChanged {
		sess.Checkpoints = cps.JSON()
	}
	sess.JournalPos, sess.Tail = end, len(recs)
	return nil
}

// rewritten returns the history a rewrite record names.
func rewritten(p string, s *Store, hashes []string, byHash map[string]message.Message) ([]message.Message, error) {
	out := make([]message.Message, 0, len(hashes))
	for _, h := range hashes {
		m, ok := byHash[h]
		if !ok {
			found, err := journal.MessagesOf(p, s.key, hashes)
			if err != nil {
				return nil, fmt.Errorf("session: journal %s: %w", p, err)
			}
			if found[0] == nil {
				return nil, fmt.Errorf("%w: journal %s names a message it does not hold", ErrCorrupt, p)
			}
			return found[0], nil
		}
		out = append(out, m)
	}
	return out, nil
}

// headerTail brings a header up to date with its journal's tail, as
// applyTail does for a whole session, counting messages without keeping
// them. A journal that cannot be read leaves the header as the file has it;
// the damaged lines skipped are in its JournalWarnings.
func (s *Store) headerTail(h *Header) { s.headerTailIn(h, dirHandle{dir: s.journalDir, fd: -1}) }

// headerTailIn is headerTail with the journal's size taken through
// journals, a handle on the journal folder.
func (s *Store) headerTailIn(h *Header, journals dirHandle) {
	fileNanos := h.sealedNanos
	if !h.modTime.IsZero() {
		fileNanos = h.modTime.UnixNano()
	}
	t, ok, err := s.readTailIn(h.TranscriptID, h.JournalPos, journals, fileNanos)
	h.JournalWarnings = t.warnings
	if !ok || err != nil || len(t.recs) == 0 {
		return
	}
	for _, r := range t.recs {
		switch r.Type {
		case journal.TypeMessage:
			h.Messages++
			if h.Title == "" && r.Message.Role == message.RoleUser {
				h.Title = DeriveTitle([]message.Message{*r.Message})
			}
		case journal.TypeRewrite:
			h.Messages = len(r.Hashes)
		}
		if r.At.After(h.UpdatedAt) {
			h.UpdatedAt = r.At
		}
	}
	h.JournalPos = t.end
}
