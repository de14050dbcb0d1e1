package conversation

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// saveAsChecked runs right after Save found a new name free (a seam: tests
// create the session there, as another process may).
var saveAsChecked = func() {}

// Save writes the live history as session name and binds to it. Saving
// over another existing session needs replace (else ErrExists): the
// surfaces ask first. Without replace the write is exclusive
// (session.Store.Create), so a session another process creates under name
// meanwhile is never replaced: ErrExists, and the engine keeps its binding,
// journal and unsaved history. Saving under a name other than the bound one
// starts a new identity (created now, own journal seeded from this one).
func (e *Engine) Save(name string, replace bool) error {
	defer e.announceBinding()
	n, err := e.personName(name)
	if err != nil {
		return err
	}
	exists := func() error {
		return i18n.Errorf("%w: %q; /session load %s opens it, or save with --yes to replace it", session.ErrExists, n, n)
	}
	if n != e.bound && e.store.Exists(n) && !replace {
		return exists()
	}
	saveAsChecked()
	if e.bound == "" {
		e.freezeMirror()
	}
	undo := e.saveState()
	if n != e.bound {
		lin := e.lineage(session.LineageSave, len(e.history))
		if e.bound != "" {
			if err := e.forkJournal(); err != nil {
				return err
			}
			e.sess = &session.Session{TranscriptID: e.sess.TranscriptID, Extra: e.sess.Extra,
				Checkpoints: e.sess.Checkpoints, Attachments: e.sess.Attachments}
		}
		e.sess.Lineage = lin
	}
	if n != e.bound {
		e.seen, e.base = session.Header{}, nil
		if replace {
			if h, err := e.store.StatFile(n); err == nil {
				e.sess.Revision = h.Revision // continue the replaced file's revisions
			}
		}
	}
	e.record(journal.ReasonSync)
	save := e.saveTo
	switch {
	case n == e.bound:
		save = func(string) error { return e.snapshot() }
	case !replace:
		save = e.createAs
	}
	if err := save(n); err != nil {
		if n != e.bound { // still bound as before: the old session keeps its journal
			undo()
		}
		if errors.Is(err, session.ErrExists) {
			return exists()
		}
		return err
	}
	e.bound = n
	return nil
}

// Load replaces the live history with session name and binds to it. Unsaved
// live content is autosaved first; its name is returned ("" when nothing
// needed saving). A session missing from the store but present in the
// working directory in ChatCLI's legacy form (.chatcli_session_<name>.json)
// is imported first and reported through Notify.
func (e *Engine) Load(name string) (autosaved string, err error) {
	defer e.announceBinding()
	s, err := e.store.Load(name)
	if errors.Is(err, session.ErrNotFound) {
		var src string
		if s, src, err = e.store.ImportLegacy(e.workDir(), name); e.landed(err) == nil {
			e.notifyf("imported legacy session file %s as %q", src, name)
			s, err = e.store.Load(name)
		} else if errors.Is(err, session.ErrNotFound) {
			_, err = e.store.Load(name) // the store's own not-found error
		}
	}
	if err != nil {
		return "", err
	}
	if autosaved, err = e.keepUnsaved(); err != nil {
		return "", err
	}
	e.bound, _ = e.store.Name(name)
	e.journal, e.supersedes, e.mirror = nil, "", mirrorState{}
	e.useFile(s)
	e.history, e.dirty = s.History, false
	for _, w := range s.JournalWarnings {
		e.notifyf("journal: %s", w.Said())
	}
	if s.Relinked { // written with its journal again on exit
		e.notifyf("session %q was rewritten by another program (ChatCLI) without chatcli's bookkeeping; linked it to its journal again with its checkpoints", e.bound)
		e.dirty = true
	}
	if m := s.ModesMerged; m.Messages > 0 { // written merged on exit: said once
		e.notifyf("merged %d messages of this file's separate agent and coder histories (ChatCLI 1.66) after its chat history, as ChatCLI does; dropped %d system prompts of those modes", m.Messages, m.System)
		e.dirty = true
	}
	e.openJournalAt(s)
	if h, err := e.store.StatFile(e.bound); err == nil {
		e.fileBytes = h.SizeBytes
	}
	if s.PosMoved { // the file's journal position is stale: written again on exit
		e.dirty, e.mustWrite = true, true
	}
	e.loadCheckpoints()
	if e.repair() {
		if err := e.writeThrough(); err != nil { // repairs are saved at once
			e.notifyf("the repair of session %q is not saved yet: %v", e.bound, err)
		}
	}
	e.record(journal.ReasonSync)
	return autosaved, nil
}

// Attach binds to session name: an existing session (or a legacy file in
// the working directory) is loaded as by Load; a missing one is created from
// the live history, at once when it holds messages, else at the first turn.
// The creation is exclusive: a session another process creates under name
// meanwhile is loaded instead, never replaced. One created after Attach
// returned is taken in by the next turn: adopted, or, when the turn is
// under way, followed by it in that session's journal; never forked
// (doc.go, The journal and the snapshot).
func (e *Engine) Attach(name string) (autosaved string, created bool, err error) {
	defer e.announceBinding()
	n, err := e.store.Name(name)
	if err != nil {
		return "", false, err
	}
	if e.store.Exists(n) || e.legacyExists(n) {
		a, err := e.Load(n)
		return a, false, err
	}
	if _, err := e.personName(n); err != nil {
		return "", false, err
	}
	if e.bound == "" { // the new session takes over the journal
		e.freezeMirror()
	}
	prev, undo := e.bound, e.saveState()
	lin := e.lineage(session.LineageAttach, len(e.history))
	e.bound, e.seen, e.base = n, session.Header{}, nil
	e.sess = &session.Session{TranscriptID: e.sess.TranscriptID, Attachments: e.sess.Attachments, Lineage: lin}
	if prev != "" {
		if err := e.forkJournal(); err != nil {
			return "", false, err
		}
	}
	if len(e.history) > 0 {
		e.record(journal.ReasonSync)
		if err := e.createAs(n); err != nil {
			e.bound = prev
			undo()
			if errors.Is(err, session.ErrExists) { // created elsewhere meanwhile: attach to it
				a, err := e.Load(n)
				return a, false, err
			}
			return "", false, err
		}
	}
	return "", true, nil
}

// saveState returns a function that sets the bound file's state (session,
// journal, last seen header and base) back to what it is now, for a
// save under a new name that failed.
func (e *Engine) saveState() func() {
	sess, id, seen, base, j := e.sess, e.sess.TranscriptID, e.seen, e.base, e.journal
	return func() { e.sess, e.seen, e.base, e.journal = sess, seen, base, j; e.sess.TranscriptID = id }
}

// legacyExists reports whether ChatCLI's legacy file for name is in the
// working directory.
func (e *Engine) legacyExists(name string) bool {
	_, err := os.Stat(filepath.Join(e.workDir(), session.LegacyFileName(name)))
	return err == nil
}

func (e *Engine) workDir() string {
	wd, _ := os.Getwd()
	return wd
}

// Detach unbinds; the live history stays (and counts as unsaved from now on
// only if it changes).
func (e *Engine) Detach() string {
	defer e.announceBinding()
	name, lin := e.bound, e.lineage(session.LineageSave, len(e.history))
	if e.dirty {
		if err := e.snapshot(); err != nil {
			e.notifyf("session %q: snapshot not written (its journal holds every turn): %v", name, err)
		}
	}
	if err := e.forkJournal(); err != nil { // the session keeps its journal
		e.notifyf("journal not forked: %v", err)
		e.sess.TranscriptID, e.journal = "", nil
	}
	e.bound, e.mirror = "", mirrorState{}
	e.sess = e.sess.Clone()
	e.sess.Revision, e.seen, e.base, e.sess.Lineage = 0, session.Header{}, nil, lin
	return name
}

// New starts an empty, unbound conversation, autosaving unsaved content
// first (its name is returned).
func (e *Engine) New() (autosaved string, err error) {
	defer e.announceBinding()
	if autosaved, err = e.keepUnsaved(); err != nil {
		return "", err
	}
	e.reset()
	return autosaved, nil
}

// reset empties the live conversation: no history, no binding, no journal.
func (e *Engine) reset() {
	e.history, e.bound, e.sess, e.dirty, e.journal, e.seen, e.base = nil, "", &session.Session{}, false, nil, session.Header{}, nil
	e.supersedes, e.fileJournal, e.wroteFile = "", "", false
	e.checkpoints, e.hashes, e.mirror, e.requests = nil, journal.Hashes{}, mirrorState{}, requestCache{}
}

// Fork copies the live history into a new session name (ErrExists if it
// exists) and binds to it; the session it came from is untouched and is
// the new one's lineage parent.
func (e *Engine) Fork(name string) error {
	return e.forkAs(name, e.lineage(session.LineageFork, len(e.history)))
}

// forkAs is Fork recording lin as the new session's lineage.
func (e *Engine) forkAs(name string, lin *session.Lineage) error {
	defer e.announceBinding()
	n, err := e.personName(name)
	if err != nil {
		return err
	}
	if e.store.Exists(n) {
		return fmt.Errorf("%w: %q", session.ErrExists, n)
	}
	if e.bound == "" { // the new session takes over the journal
		e.freezeMirror()
	}
	prev := e.sess.TranscriptID
	if err := e.forkJournal(); err != nil {
		return err
	}
	cps, err := rewind.Encode(e.checkpoints)
	if err != nil {
		return err
	}
	s := &session.Session{History: e.history, Extra: e.sess.Extra, Checkpoints: cps,
		Attachments: e.sess.Attachments, TranscriptID: e.sess.TranscriptID, Lineage: lin}
	if e.journalDir != "" && s.TranscriptID != "" {
		// The new file is a snapshot of its journal as it stands, so a
		// load adds the turns the journal takes before the file is next
		// written (a kill right after a reply leaves them there alone).
		e.record(journal.ReasonSync)
		s.JournalPos = e.journalPosOf(s)
	}
	if err := e.landed(e.store.Create(n, s)); err != nil {
		e.sess.TranscriptID, e.journal = prev, nil
		return err
	}
	e.bound = n
	e.sess, e.dirty, e.base, e.fileJournal, e.wroteFile = s, false, s.History, s.TranscriptID, true
	e.seen = session.Header{Revision: s.Revision, UpdatedAt: s.UpdatedAt}
	return nil
}

// Delete moves session name to the trash (session.Store.Trash), from which
// Store.Restore brings it back. When it is the bound session, the live
// history is cleared and unbound; cleared reports that.
func (e *Engine) Delete(name string) (cleared bool, err error) {
	defer e.announceBinding()
	n, err := e.store.Name(name)
	if err != nil {
		return false, err
	}
	if _, err := e.store.Trash(n); e.landed(err) != nil {
		return false, err
	}
	if n == e.bound {
		e.reset()
		return true, nil
	}
	return false, nil
}

// Close is called when the surface exits: an unbound conversation with
// unsaved content and at least two non-system messages is saved as an
// autosave (when enabled) and its name returned. A bound conversation with
// unsaved content is written through once more and, if that fails,
// autosaved whatever the settings, so nothing typed is lost.
func (e *Engine) Close(autosave bool) (string, error) {
	e.record(journal.ReasonSync)
	if !e.dirty {
		return "", nil
	}
	if e.bound != "" {
		err := e.snapshot()
		if err == nil {
			return "", nil
		}
		e.notifyf("session %q could not be written (%v); keeping this conversation as an autosave", e.bound, err)
		return e.autosave()
	}
	if !autosave && e.supersedes == "" || nonSystem(e.history) < 2 { // a continued autosave is kept whatever the setting
		return "", nil
	}
	return e.autosave()
}

// keepUnsaved saves unsaved live content before it is replaced: written
// through when bound, else (or when that fails) as an autosave whose name is
// returned. An empty history needs nothing.
func (e *Engine) keepUnsaved() (string, error) {
	if !e.dirty || nonSystem(e.history) == 0 {
		return "", nil
	}
	if e.bound != "" && e.snapshot() == nil {
		return "", nil
	}
	return e.autosave()
}

func (e *Engine) autosave() (string, error) {
	if err := e.store.AutoWriteRefusal(); errors.Is(err, session.ErrStoreEncrypted) {
		return "", i18n.Errorf("autosave: %w: this conversation was not autosaved; /session save NAME keeps it (in plaintext)", err)
	} else if err != nil {
		return "", i18n.Errorf("autosave: this conversation was not autosaved: %w", err)
	}
	cps, _ := rewind.Encode(e.checkpoints) // checkpoints always encode
	id := e.JournalID()
	if e.bound != "" && id != "" { // the bound session keeps its journal
		e.record(journal.ReasonSync)
		var err error
		if id, err = e.copyJournal(id); err != nil {
			return "", fmt.Errorf("autosave: %w", err)
		}
	}
	s := &session.Session{History: e.history, TranscriptID: id, Checkpoints: cps}
	name, err := e.store.CreateUnique(AutosavePrefix+e.now().Format("20060102-150405"), s)
	if err = e.landed(err); err != nil {
		return "", fmt.Errorf("autosave: %w", err)
	}
	e.dirty = false
	e.supersede(name)
	e.saved(name)
	return name, nil
}

// MachinePrefixes start the names of sessions chatcli makes itself
// (autosaves, MCP and ACP mirrors, the chat gateway's gw- mirrors).
// Retention may remove those; a person cannot give such a name to a new
// session.
var MachinePrefixes = []string{AutosavePrefix, "mcp-", "gw-"}

// ErrReservedName is returned for a new session named like a machine-made
// one.
var ErrReservedName = errors.New("reserved session name")

// personName validates a name a person gives a session: a valid name that
// does not start with a machine prefix, unless it is the bound session's
// own name (writing an attached autosave through).
func (e *Engine) personName(name string) (string, error) {
	n, err := e.store.Name(name)
	if err != nil || n == e.bound {
		return n, err
	}
	if err := ReservedName(n); err != nil {
		return "", err
	}
	return n, nil
}

// ReservedName returns an error wrapping ErrReservedName, saying the rule,
// when name starts with one of MachinePrefixes; nil otherwise. It is the
// one check of every name a person gives a new session, on every surface.
func ReservedName(name string) error {
	for _, p := range MachinePrefixes {
		if strings.HasPrefix(name, p) {
			return i18n.Errorf("%w %q: names starting with %q are kept for sessions chatcli makes itself, which expire; choose another name", ErrReservedName, name, p)
		}
	}
	return nil
}
