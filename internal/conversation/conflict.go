package conversation

import (
	"errors"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// ConflictInfix joins a session's name and the time in the name of a
// conflict fork: NAME.conflict-YYYYMMDD-HHMMSS[-n].
const ConflictInfix = ".conflict-"

// ErrForkedAway is returned, wrapped with both session names, by an agent
// or coder turn that stopped because its write-through found the bound
// session changed elsewhere in a way that cannot be merged: this window's
// version, the turn's work so far included, was kept as a conflict fork
// and the other version became live, which the loop does not send to the
// model as if it were this task's. Loading the fork continues the task.
var ErrForkedAway = errors.New("conversation: the task stopped: its session changed elsewhere")

// writeThrough saves the live history to the bound session, if any, on
// condition that the file is still at the revision this engine last saw
// (session.Store.SaveIf). When another process saved since, the two are
// reconciled (see reconcile).
func (e *Engine) writeThrough() error {
	_, err := e.writeThroughFork()
	return err
}

// writeThroughFork is writeThrough that also returns the name of the
// conflict fork that now holds this window's version when reconciling
// made the other side live ("" otherwise).
func (e *Engine) writeThroughFork() (fork string, err error) {
	if fork, e.pendingFork = e.pendingFork, ""; fork != "" || e.bound == "" {
		return fork, nil
	}
	if e.noWriteThrough {
		return e.writeOff()
	}
	if e.journaled() {
		return "", nil // the journal holds the turn (snapshot.go)
	}
	err = e.saveTo(e.bound)
	if !errors.Is(err, session.ErrConflict) {
		return "", err
	}
	if done, err := e.snapshotOverPeer(); done {
		return "", err
	}
	return e.reconcile()
}

// reconcile settles a live history holding changes the bound file never
// got with the file another process saved since. Under the session's lock
// (session.Store.Update) it reads the file and writes the merge of both
// (mergeHistories) with the union of both sides' checkpoints
// (rewind.Merge) when there is one, so no third write can come between;
// otherwise this side is kept as a conflict fork, whose name is returned,
// and the file's version becomes live.
func (e *Engine) reconcile() (fork string, err error) {
	cps, err := rewind.Encode(e.checkpoints)
	if err != nil {
		return "", err
	}
	var saved, other *session.Session
	var theirs int
	var recreated bool
	var mergedCps []rewind.Checkpoint
	err = e.store.Update(e.bound, func(cur *session.Session) (*session.Session, error) {
		if cur == nil { // deleted since: write this side again
			saved, recreated = e.sess.Clone(), true
			saved.History, saved.Checkpoints = e.history, cps
			saved.JournalPos = e.journalPosOf(saved)
			return saved, nil
		}
		h, n, ok := mergeHistories(e.base, cur.History, e.history)
		if !ok {
			other = cur
			return nil, nil
		}
		merged := e.checkpoints
		if list, err := rewind.Decode(cur.Checkpoints); err == nil {
			merged = rewind.Merge(list, e.checkpoints)
		}
		both, err := rewind.Encode(merged)
		if err != nil {
			return nil, err
		}
		saved, theirs, mergedCps = cur.Clone(), n, merged
		saved.History, saved.Checkpoints = h, both
		if e.useJournalOf(cur) {
			// The merge goes to the file's journal first, so the file
			// written is its snapshot and other windows read it as one:
			// with the merged checkpoints, which the commit records, else
			// the file could name no journal position.
			e.history, e.checkpoints = h, merged
			e.commit(journal.ReasonSync)
			if both, err = rewind.Encode(e.checkpoints); err != nil {
				return nil, err
			}
			saved.History, saved.Checkpoints, mergedCps = e.history, both, e.checkpoints
		}
		saved.JournalPos = e.journalPosOf(saved)
		return saved, nil
	})
	err = e.landed(err)
	switch {
	case err != nil:
		return "", err
	case other != nil:
		return e.forkConflict(other, true)
	case recreated:
		e.notifyf("session %q was deleted elsewhere; this window wrote it again", e.bound)
	case theirs > 0:
		e.notifyf("session %q gained %d messages elsewhere; this window's %d new messages now follow them",
			e.bound, theirs, len(saved.History)-len(e.base)-theirs)
	}
	if mergedCps != nil {
		e.checkpoints = mergedCps
	}
	e.useFile(saved)
	e.history, e.dirty = saved.History, false
	e.record(journal.ReasonSync)
	return "", nil
}

// useJournalOf makes the journal of cur, the bound file as just loaded
// (its history and tail), this engine's journal, positioned where cur's
// history ends, and says whether it could. The journal this engine kept
// before (of a file it wrote that was replaced) is left as it is.
func (e *Engine) useJournalOf(cur *session.Session) bool {
	if e.journalDir == "" || !journal.ValidID(cur.TranscriptID) || e.store.AutoWriteRefusal() != nil {
		return false
	}
	if e.journal != nil && e.journal.ID() == cur.TranscriptID {
		return true
	}
	e.openJournalAt(cur) // at cur's position; without one, openJournal reads it whole
	e.sess.TranscriptID = cur.TranscriptID
	if err := e.openJournal(); err != nil {
		e.notifyf("journal not opened: %v", err)
		return false
	}
	return true
}

// mergeHistories returns base, then theirs' messages after base, then
// ours' messages after base, and the number of theirs' new messages, when
// theirs and ours both start with base and the result passes
// message.Validate (tool-call groups intact). Messages are compared by
// their journal hashes (role, content, tool calls, tool_call_id, images;
// not meta).
func mergeHistories(base, theirs, ours []message.Message) ([]message.Message, int, bool) {
	hb, ht, ho := journal.HashHistory(base), journal.HashHistory(theirs), journal.HashHistory(ours)
	n := len(hb)
	if len(ht) < n || len(ho) < n || !slices.Equal(ht[:n], hb) || !slices.Equal(ho[:n], hb) {
		return nil, 0, false
	}
	merged := slices.Concat(theirs, ours[n:])
	if message.Validate(merged) != nil {
		return nil, 0, false
	}
	return merged, len(theirs) - n, true
}

// forkConflict keeps the live history as a new session named
// NAME.conflict-<time> with its own journal, announces it, and makes other
// live; it returns the fork's name. When the fork cannot be written,
// nothing is adopted and the error is returned: the live history stays
// unsaved (Close autosaves it).
//
// With recordFirst this side is first recorded in the lineage's journal
// (the journal then holds both); a journal commit that met another
// rewrite (snapshot.go) cannot record it there, and the fork's own
// journal records it at its first commit.
func (e *Engine) forkConflict(other *session.Session, recordFirst bool) (string, error) {
	if recordFirst {
		e.record(journal.ReasonSync) // the lineage's journal holds this side too
	}
	id, lin := e.JournalID(), e.lineage(session.LineageConflict, shared(e.base, e.history, other.History))
	if lin != nil && e.bound != "" && other.TranscriptID != "" {
		// The fork's parent is the session as it stays live: with
		// write-through off this window's journal is a copy no session
		// names, so only other's journal finds the parent again.
		lin.ParentTranscript = other.TranscriptID
	}
	if id != "" {
		var err error
		if id, err = e.copyJournal(id); err != nil {
			return "", i18n.Errorf("session %q changed elsewhere; keeping this window's version: %w", e.bound, err)
		}
	}
	cps, _ := rewind.Encode(e.checkpoints) // checkpoints always encode
	s := &session.Session{History: e.history, TranscriptID: id, Checkpoints: cps,
		Extra: e.sess.Extra, Attachments: e.sess.Attachments, Lineage: lin}
	name, err := e.store.CreateUnique(conflictName(e.bound, e.now().Format("20060102-150405")), s)
	if err = e.landed(err); err != nil {
		return "", i18n.Errorf("session %q changed elsewhere; keeping this window's version: %w", e.bound, err)
	}
	e.notifyf("session %q was changed elsewhere and cannot be merged: this window's version is kept as session %q; the other version is now live",
		e.bound, name)
	e.saved(name)
	e.take(other)
	return name, nil
}

// shared is how many messages ours and theirs have in common from the
// start, at most len(base): with write-through off, base follows this
// window's own turns, which the other side never got.
func shared(base, ours, theirs []message.Message) int {
	ho, ht := journal.HashHistory(ours), journal.HashHistory(theirs)
	n := 0
	for n < len(base) && n < len(ho) && n < len(ht) && ho[n] == ht[n] {
		n++
	}
	return n
}

// conflictName is the name of a conflict fork of session name at stamp,
// with name clipped so the whole stays a valid name.
func conflictName(name, stamp string) string {
	suffix := ConflictInfix + stamp
	const room, roomBytes = session.MaxNameChars - 4, session.MaxNameBytes - 4 // CreateUnique may add "-n"
	r := []rune(name)
	if len(r)+len(suffix) <= room && len(name)+len(suffix) <= roomBytes { // the suffix is ASCII
		return name + suffix
	}
	r = r[:min(len(r), room-len(suffix))]
	for len(string(r))+len(suffix) > roomBytes {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), ".") + suffix
}

// take makes other, the bound session as stored, the live conversation.
func (e *Engine) take(other *session.Session) {
	e.useFile(other)
	e.history, e.dirty = other.History, false
	if other.JournalPos.Seq > 0 {
		e.openJournalAt(other)
	}
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
	e.sess, e.base, e.fileJournal, e.wroteFile = other, other.History, other.TranscriptID, false
	e.seen = session.Header{Revision: other.Revision, UpdatedAt: other.UpdatedAt}
}

// forgetFile records that the bound file does not exist (any more): the
// next write creates it.
func (e *Engine) forgetFile() {
	e.seen, e.base, e.sess.Revision = session.Header{}, nil, 0
}
