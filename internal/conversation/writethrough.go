package conversation

import (
	"errors"
	"io/fs"
	"os"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
)

// With write-through off (Options.NoWriteThrough,
// CHATCLI_SESSION_WRITETHROUGH=false) a bound session neither takes this
// window's turns as they land nor gives it other windows' turns. Under
// the journal as write-ahead log (DESIGN.md §4-5) both directions go
// through the session's journal: other windows read a session as its
// file plus the journal's tail, and a commit to that journal takes in
// what others appended. So off cannot mean "keep committing to the
// session's journal but not the file": the turns would still reach every
// other window through the tail, and this window would take in theirs.
// Off therefore means:
//
//   - before this window first journals anything while bound, it copies
//     the session's journal (journal.Fork) and from then on commits to the
//     copy, which no session names: the turns are on disk at once (a
//     write-ahead log of this window), but no other window sees them;
//   - no adoption before a turn (adopt returns at once);
//   - the session file is written only at the snapshot points: /session
//     save NAME, detach, load, new, fork, and exit (snapshot). The file
//     then names the copy, which holds the session's whole journal up to
//     the copy plus this window's turns;
//   - that write never merges and never replaces another window's work:
//     when the file's revision moved, or the session's journal grew since
//     the copy, this window's conversation is kept as the announced
//     conflict fork NAME.conflict-… and NAME is left as the other window
//     made it.
//
// What cannot hold: turns of this window a crash interrupts before a
// snapshot point are in the unnamed copy only (no session names it; the
// retention of journals no session names removes it after
// CHATCLI_SESSION_TTL), which is what "no write-through" asks. And a
// record another window appends in the milliseconds between the load and
// the copy is in the copy, so it is taken in; so is one appended between a
// save this window made mid-conversation and its next turn (the copy is
// then made at that turn, not at the save, so that exit costs no copy).
// Either way movedOn sees it and the conflict fork keeps both sides.

// goPrivate gives the bound conversation a journal of its own, a copy of
// the session's, when write-through is off and the next commit would go
// to the journal the bound file names. It reports whether committing may
// go on (false: the copy failed, said through Notify, and nothing is
// committed this time).
func (e *Engine) goPrivate() bool {
	if !e.noWriteThrough || e.bound == "" || e.sess.TranscriptID == "" || e.sess.TranscriptID != e.fileJournal {
		return true
	}
	if e.wroteFile && e.inJournalView() {
		return false // nothing new since this window wrote the file: no copy, and nothing to take in
	}
	shared := e.sess.TranscriptID
	path := journal.Path(e.journalDir, shared)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		e.sharedPos = journal.Pos{} // none yet: any record in it later is another window's
		e.sess.TranscriptID, e.journal = journal.NewID(), nil
		return true
	}
	if e.journal != nil && e.journal.ID() == shared {
		e.sharedPos = e.journal.Pos()
	} else {
		j, _, err := journal.Open(e.journalDir, shared, e.store.Key())
		if err != nil {
			e.journalFailed(i18n.Errorf("session %q's journal (CHATCLI_SESSION_WRITETHROUGH is off): %w", e.bound, err))
			return false
		}
		e.sharedPos = j.Pos()
	}
	id, err := e.copyJournal(shared)
	if err != nil {
		e.journalFailed(i18n.Errorf("copy of session %q's journal (CHATCLI_SESSION_WRITETHROUGH is off): %w", e.bound, err))
		return false
	}
	e.sess.TranscriptID, e.journal = id, nil
	return true
}

// movedOn reports whether another window changed the bound session since
// this one last read or wrote it: a new revision of its file, or
// messages or a rewrite committed to the journal this window copied
// (goPrivate) after the position it had read. A record of checkpoints
// alone (another window's load) changes no history. When the journal
// cannot be read it counts as moved on: the conflict fork keeps both.
func (e *Engine) movedOn() bool {
	h, err := e.store.StatFile(e.bound)
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return false // deleted elsewhere: written again, as with write-through on
	}
	if err != nil || h.Revision != e.seen.Revision {
		return true
	}
	if e.fileJournal == "" || e.fileJournal == e.sess.TranscriptID || e.journalDir == "" {
		return false // the file names this window's journal: no one else writes it
	}
	recs, _, _, err := journal.ReadAfter(journal.Path(e.journalDir, e.fileJournal), e.store.Key(), e.sharedPos)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	for _, r := range recs {
		if r.Type == journal.TypeMessage || r.Type == journal.TypeRewrite {
			return true
		}
	}
	return false
}

// writeOff is writeThroughFork with write-through off: nothing between
// the snapshot points; at one, the file is written if no other window
// changed the session since, else this window's conversation is kept as
// a conflict fork (its name returned) and the session's version is live.
func (e *Engine) writeOff() (fork string, err error) {
	if !e.snapshotting {
		return "", nil // kept for the next snapshot point (Dirty stays true)
	}
	if !e.movedOn() {
		if _, serr := e.store.StatFile(e.bound); serr != nil {
			e.forgetFile() // deleted elsewhere: created again
		}
		err = e.saveTo(e.bound)
		if !errors.Is(err, session.ErrConflict) {
			return "", err
		}
	}
	other, err := e.store.Load(e.bound)
	if err != nil {
		return "", err
	}
	e.notifyf("session %q changed in another window while this one did not write through (CHATCLI_SESSION_WRITETHROUGH is off)", e.bound)
	return e.forkConflict(other, true)
}
