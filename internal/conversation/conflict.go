package conversation

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// ConflictInfix joins a session's name and the time in the name of a
// conflict fork: NAME.conflict-YYYYMMDD-HHMMSS[-n].
const ConflictInfix = ".conflict-"

// maxSaveAttempts bounds the merge-and-retry loop of one write-through;
// past it the live version is kept as a conflict fork.
const maxSaveAttempts = 8

// writeThrough saves the live history to the bound session, if any, on
// condition that the file is still at the revision this engine last saw
// (session.Store.SaveIf). When another process saved since, the two are
// reconciled (see reconcile) and the save is tried again.
func (e *Engine) writeThrough() error {
	if e.bound == "" {
		return nil
	}
	var err error
	for attempt := 1; attempt <= maxSaveAttempts; attempt++ {
		err = e.saveTo(e.bound)
		if !errors.Is(err, session.ErrConflict) {
			return err
		}
		other, lerr := e.store.Load(e.bound)
		if errors.Is(lerr, session.ErrNotFound) { // deleted since: write it again
			e.notify(fmt.Sprintf("session %q was deleted elsewhere; this window writes it again", e.bound))
			e.forgetFile()
			continue
		}
		if lerr != nil {
			return lerr
		}
		if attempt == maxSaveAttempts || !e.merge(other) {
			return e.forkConflict(other)
		}
	}
	return err
}

// reconcile settles a live history holding changes the bound file never
// got with other, the bound session as another process saved it: merged
// and written through when merge allows it, else kept as a conflict fork
// while other becomes live.
func (e *Engine) reconcile(other *session.Session) error {
	if e.merge(other) {
		return e.writeThrough()
	}
	return e.forkConflict(other)
}

// merge makes the live history common + theirs + ours when both the live
// history and other's extend base, the history this engine last synced
// with the file, by new messages, and the result passes
// message.Validate. It reports whether it did; the caller then saves.
// Messages are compared by their journal hashes (role, content, tool calls,
// tool_call_id, images; not meta).
func (e *Engine) merge(other *session.Session) bool {
	base, theirs, ours := journal.HashHistory(e.base), journal.HashHistory(other.History), journal.HashHistory(e.history)
	if len(theirs) < len(base) || len(ours) < len(base) ||
		!slices.Equal(theirs[:len(base)], base) || !slices.Equal(ours[:len(base)], base) {
		return false
	}
	n := len(base)
	merged := slices.Concat(other.History, e.history[n:])
	if message.Validate(merged) != nil {
		return false
	}
	if len(e.history) > n && len(other.History) > n {
		e.notify(fmt.Sprintf("session %q gained %d message(s) elsewhere; this window's %d new message(s) now follow them",
			e.bound, len(other.History)-n, len(e.history)-n))
	}
	e.useFile(other)
	e.history, e.dirty = merged, true
	e.record(journal.ReasonSync)
	return true
}

// forkConflict keeps the live history as a new session named
// NAME.conflict-<time> with its own journal, announces it, and makes other
// live. When the fork cannot be written, nothing is adopted and the error
// is returned: the live history stays unsaved (Close autosaves it).
func (e *Engine) forkConflict(other *session.Session) error {
	e.record(journal.ReasonSync) // the lineage's journal holds this side too
	id := e.JournalID()
	if id != "" {
		var err error
		if id, err = journal.Fork(e.journalDir, id); err != nil {
			return fmt.Errorf("session %q changed elsewhere; keeping this window's version: %w", e.bound, err)
		}
	}
	cps, _ := rewind.Encode(e.checkpoints) // checkpoints always encode
	s := &session.Session{History: e.history, TranscriptID: id, Checkpoints: cps,
		Extra: e.sess.Extra, Attachments: e.sess.Attachments}
	name, err := e.store.CreateUnique(conflictName(e.bound, e.now().Format("20060102-150405")), s)
	if err != nil {
		return fmt.Errorf("session %q changed elsewhere; keeping this window's version: %w", e.bound, err)
	}
	e.notify(fmt.Sprintf("session %q was changed elsewhere and cannot be merged: this window's version is kept as session %q; the other version is now live",
		e.bound, name))
	e.take(other)
	return nil
}

// conflictName is the name of a conflict fork of session name at stamp,
// with name clipped so the whole stays a valid name.
func conflictName(name, stamp string) string {
	suffix := ConflictInfix + stamp
	const room = 128 - 4 // CreateUnique may add "-n"
	if r := []rune(name); len(r)+len([]rune(suffix)) > room {
		name = strings.TrimRight(string(r[:room-len([]rune(suffix))]), ".")
	}
	return name + suffix
}

// take makes other, the bound session as stored, the live conversation.
func (e *Engine) take(other *session.Session) {
	e.useFile(other)
	e.history, e.dirty = other.History, false
	e.loadCheckpoints()
	e.repair()
	e.record(journal.ReasonSync)
}

// useFile records other as the bound file's last known state: its header
// and unknown members are kept on the next write, and its history is the
// base of the next merge.
func (e *Engine) useFile(other *session.Session) {
	if other.TranscriptID != e.sess.TranscriptID {
		e.journal = nil
	}
	e.sess, e.base = other, other.History
	e.seen = session.Header{Revision: other.Revision, UpdatedAt: other.UpdatedAt}
}

// forgetFile records that the bound file does not exist (any more): the
// next write creates it.
func (e *Engine) forgetFile() {
	e.seen, e.base, e.sess.Revision = session.Header{}, nil, 0
}
