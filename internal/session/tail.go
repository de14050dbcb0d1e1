// The session file as the journal's snapshot: what Load and the headers
// add from the journal records after a file's journal_pos (doc.go, "The
// journal tail").

package session

import (
	"fmt"
	"os"

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

// tailPath is the journal whose tail belongs to a file with this
// transcript id and position, "" when none does.
func (s *Store) tailPath(id string, pos journal.Pos) string {
	if s.journalDir == "" || pos.Seq <= 0 || !journal.ValidID(id) {
		return ""
	}
	return journal.Path(s.journalDir, id)
}

// applyTail brings sess, as decoded from its file, up to date with the
// records its journal holds after sess.JournalPos: message records append
// their message, a rewrite record sets the history to the messages it
// names (from the history so far, the tail, or else the whole journal), a
// checkpoints record replaces the checkpoints.
// sess.JournalPos becomes the position after the last record, Tail counts
// the records and UpdatedAt is the last record's time when later.
func (s *Store) applyTail(sess *Session) error {
	p := s.tailPath(sess.TranscriptID, sess.JournalPos)
	if p == "" {
		return nil
	}
	if st, err := os.Stat(p); err != nil || st.Size() == sess.JournalPos.Offset {
		return nil // no journal, or nothing after the position (a repair or rekey changes the size)
	}
	recs, end, warnings, err := journal.ReadAfter(p, s.key, sess.JournalPos)
	sess.JournalWarnings = warnings
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
	for _, r := range recs {
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
		case journal.TypeCheckpoints:
			sess.Checkpoints = r.Checkpoints
		}
		if r.At.After(sess.UpdatedAt) {
			sess.UpdatedAt = r.At
		}
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
// them. A journal that cannot be read leaves the header as the file has it.
func (s *Store) headerTail(h *Header) {
	p := s.tailPath(h.TranscriptID, h.JournalPos)
	if p == "" {
		return
	}
	if st, err := os.Stat(p); err != nil || st.Size() == h.JournalPos.Offset {
		return
	}
	recs, end, _, err := journal.ReadAfter(p, s.key, h.JournalPos)
	if err != nil || len(recs) == 0 {
		return
	}
	for _, r := range recs {
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
	h.JournalPos = end
}
