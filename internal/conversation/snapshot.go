package conversation

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// The bound session's file is a snapshot of its journal (DESIGN.md §4):
// a turn is committed to the journal, and the file is written only when
// it must be (the journal off or failing, the file naming no journal
// position, a meta change) or when the journal's tail since the file
// outgrows a fraction of the file, and on exit, load, new and detach (the
// callers of snapshot). Load gives the file plus the tail.

// snapshotMinTail is the tail a snapshot waits for whatever the file's
// size, in bytes; above it, the tail may reach half the file. So a
// session's snapshots add up to about three times its final size, however
// many turns it had.
const snapshotMinTail = 64 << 10

// journaled reports whether the bound file plus its journal's tail is the
// live history, so a write-through can leave the file as it is: the
// journal holds the history (its view is the history's hashes), the file
// names a position in that journal and was written by a chatcli that
// keeps snapshots, no meta changed since, and the tail is still small.
func (e *Engine) journaled() bool {
	if e.mustWrite || !e.inJournal() {
		return false
	}
	tail := e.journal.Pos().Offset - e.sess.JournalPos.Offset
	return tail >= 0 && tail < max(snapshotMinTail, e.fileBytes/2)
}

// inJournal reports whether the bound file plus its journal's tail holds
// the live history (meta aside): the journal's view is the history's
// hashes, and the file names a position in that journal.
func (e *Engine) inJournal() bool {
	return e.sess.JournalPos.Seq > 0 && e.seen.Revision != 0 && e.inJournalView() && e.sess.TranscriptID == e.fileJournal
}

// snapshot writes the bound file now (DESIGN.md §4: at exit, detach,
// load and new), whatever journaled says.
func (e *Engine) snapshot() error {
	e.mustWrite, e.snapshotting = true, true // mustWrite is cleared by the write
	defer func() { e.snapshotting = false }()
	return e.writeThrough()
}

// snapshotOverPeer writes the bound file after a conditional write found
// it rewritten by another window that keeps the same journal (a snapshot
// of it): both files are the journal's view somewhere, so nothing is
// merged. When the other snapshot covers at least what this one would,
// it is left as it is; otherwise this one replaces it. It reports whether
// the file was such a snapshot (false: reconcile as usual).
func (e *Engine) snapshotOverPeer() (bool, error) {
	for range 5 {
		h, err := e.store.StatFile(e.bound)
		if err != nil || !e.journalPeer(h) || !e.inJournalView() {
			return false, nil
		}
		e.seen = session.Header{Revision: h.Revision, UpdatedAt: h.UpdatedAt}
		e.sess.Revision, e.fileBytes = h.Revision, h.SizeBytes
		if h.JournalPos.Seq >= e.journal.Pos().Seq && !e.mustWrite {
			e.sess.JournalPos, e.dirty = h.JournalPos, false
			return true, nil
		}
		err = e.saveTo(e.bound)
		if !errors.Is(err, session.ErrConflict) {
			return true, err
		}
	}
	return true, i18n.Errorf("session %q: its file keeps changing; the journal holds every turn", e.bound)
}

// inJournalView reports whether the journal holds the live history: its
// view is the history's hashes.
func (e *Engine) inJournalView() bool {
	return e.journal != nil && e.journal.ID() == e.sess.TranscriptID && slices.Equal(e.journal.View(), e.hashes.Of(e.history))
}

// journalPosOf is the journal position a file holding s may name: the
// engine's journal position when that journal is s's and holds exactly
// s's history and checkpoints (a reader adds the checkpoints recorded
// after the position to the file's); otherwise none, and the file stands
// on its own.
func (e *Engine) journalPosOf(s *session.Session) journal.Pos {
	if e.journal == nil || e.journal.ID() != s.TranscriptID || !slices.Equal(e.journal.View(), e.hashes.Of(s.History)) ||
		!e.journal.HoldsCheckpoints(s.Checkpoints) {
		return journal.Pos{}
	}
	return e.journal.Pos()
}

// journalPeer reports whether header h is of a snapshot of this engine's
// journal written by another window: what changed since is in the
// journal, read by adoptJournal.
func (e *Engine) journalPeer(h session.Header) bool {
	return e.journalDir != "" && h.JournalPos.Seq > 0 && h.TranscriptID != "" && h.TranscriptID == e.sess.TranscriptID
}

// adoptJournal takes in what other windows committed to the journal since
// this engine last read it (journal.Journal.Commit) and says whether
// anything changed: the history, or the checkpoints (whose numbers the
// rewind menu shows).
func (e *Engine) adoptJournal() bool {
	if e.journal == nil || e.journalDir == "" || e.sess.TranscriptID == "" || e.store.AutoWriteRefusal() != nil {
		return false
	}
	before, cps := len(e.history), slices.Clone(e.checkpoints)
	adopted := e.commit(journal.ReasonSync)
	return adopted > 0 || len(e.history) != before || !slices.Equal(cps, e.checkpoints)
}

// openJournalAt opens the journal of s, just loaded, at the position the
// file and its tail cover, with s's history as its view (so nothing
// before it is read); without a position it is opened as usual, on demand.
func (e *Engine) openJournalAt(s *session.Session) {
	e.journal = nil
	if e.journalDir == "" || s.JournalPos.Seq <= 0 || !journal.ValidID(s.TranscriptID) {
		return
	}
	j, err := journal.OpenAt(e.journalDir, s.TranscriptID, e.store.Key(), s.JournalPos, e.hashes.Of(s.History), s.Checkpoints)
	if err != nil {
		e.notifyf("journal not opened: %v", err)
		return
	}
	e.journal = j
}

// commit records the live history in the journal (journal.Journal.Commit),
// taking in what other windows appended, and returns how many messages
// came from them. Two rewrites of one base keep this side as a conflict
// fork (named by the next writeThroughFork) and make the other live.
func (e *Engine) commit(reason string) int {
	cps := func(theirs json.RawMessage) json.RawMessage {
		if list, err := rewind.Decode(theirs); err == nil && len(list) > 0 {
			// Each window can rewind to the moments before the other's
			// turns too.
			e.checkpoints = rewind.Merge(list, e.checkpoints)
		}
		raw, _ := rewind.Encode(e.checkpoints) // checkpoints always encode
		if raw == nil {
			raw = json.RawMessage("[]")
		}
		return raw
	}
	res, err := e.journal.Commit(e.history, &e.hashes, reason, cps)
	var rc *journal.RewriteConflict
	switch {
	case errors.As(err, &rc):
		other := e.sess.Clone()
		other.History = rc.Theirs
		fork, ferr := e.forkConflict(other, false)
		if ferr != nil {
			e.journalFailed(ferr)
			return 0
		}
		e.pendingFork = fork
		return 0
	case e.landed(err) != nil:
		e.journalFailed(err)
		return 0
	}
	e.journalLanded()
	e.history = res.History
	if e.fileNames(e.journal.ID()) {
		// What every reader of the file and its journal now loads: the
		// base of a merge with a file written without the journal.
		e.base = res.History
	}
	if res.Adopted > 0 {
		e.notifyf("session %q: took in %d messages written in another window", e.bound, res.Adopted)
	}
	return res.Adopted
}

// fileNames reports whether the bound file, as this engine last read or
// wrote it, exists and names journal id: only then is what id's view
// holds what a reader of the file loads, and so the base of a merge. A
// session not created yet (or deleted since) names no journal: its base
// stays empty, so when another window creates it first, this window's
// turns, all new to it, merge after that window's and go on in its
// journal (reconcile) instead of making a conflict fork.
func (e *Engine) fileNames(id string) bool {
	known := e.seen.Revision != 0 || !e.seen.UpdatedAt.IsZero()
	return e.bound != "" && known && id != "" && id == e.fileJournal
}
