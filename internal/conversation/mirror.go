package conversation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// ErrBound is returned by Mirror while the conversation is bound: the bound
// session is written through after every turn and needs no mirror.
var ErrBound = errors.New("conversation: bound to a session")

// IsMachineName reports whether name starts with one of MachinePrefixes:
// a session chatcli makes itself, which retention may remove.
func IsMachineName(name string) bool {
	for _, p := range MachinePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Mirror writes the live, unbound conversation to the machine-made session
// name (it must start with one of MachinePrefixes, such as "mcp-") without
// binding to it: the protocol servers keep each live conversation in the
// store this way (DESIGN.md §5, "MCP/ACP sessions mirror to mcp-<id>").
// An existing file of that name is replaced, its revision continued. The
// mirror names the conversation's journal, like an autosave does. After a
// successful mirror the history counts as saved (Dirty is false), so a
// surface that replaces the conversation must mirror the next one under
// another name. A history with no message other than system messages is
// not written, so a fresh conversation never blanks an earlier mirror.
//
// Errors: ErrBound while bound; session.ErrInvalidName, or ErrReservedName
// wrapped for a name without a machine prefix; session.Store.
// AutoWriteRefusal's (a refused key, or an encrypted store without a key:
// nothing is written); the store's write errors (the previous mirror file
// is then byte-identical).
func (e *Engine) Mirror(name string) error {
	if e.bound != "" {
		return i18n.Errorf("%w %q: it is written through, not mirrored", ErrBound, e.bound)
	}
	n, err := session.NormalizeName(name)
	if err != nil {
		return err
	}
	if !IsMachineName(n) {
		return i18n.Errorf("%w: a mirror's name must start with one of %q, not %q", ErrReservedName, MachinePrefixes, n)
	}
	if nonSystem(e.history) == 0 {
		return nil // a fresh conversation never blanks an earlier mirror
	}
	if err := e.store.AutoWriteRefusal(); err != nil {
		return i18n.Errorf("mirror %q: this conversation was not mirrored: %w", n, err)
	}
	e.record(journal.ReasonSync)
	h, statErr := e.store.StatFile(n)
	if statErr == nil && e.mirrorCurrent(n, h) {
		e.dirty = false // the journal's tail brings the mirror up to date
		return nil
	}
	return e.writeMirror(n, h, statErr, true)
}

// writeMirror writes the live history as mirror name, whose header is h
// (statErr when it could not be read), naming the journal position it
// covers when atPos is set; without it the file stands on its own.
func (e *Engine) writeMirror(n string, h session.Header, statErr error, atPos bool) error {
	cps, err := rewind.Encode(e.checkpoints)
	if err != nil {
		return err
	}
	s := &session.Session{History: e.history, TranscriptID: e.JournalID(), Checkpoints: cps}
	if statErr == nil {
		s.Revision, s.CreatedAt = h.Revision, h.CreatedAt // continue the file's revisions
	}
	if atPos {
		s.JournalPos = e.journalPosOf(s)
	}
	e.mirror = mirrorState{}
	if err := e.landed(e.store.Save(n, s)); err != nil {
		return fmt.Errorf("mirror %q: %w", n, err)
	}
	e.dirty, e.mustWrite = false, false
	if statErr != nil {
		e.saved(n) // a new mirror
	}
	if s.JournalPos.Seq > 0 {
		e.mirror = mirrorState{name: n, revision: s.Revision, pos: s.JournalPos}
		if h, err := e.store.StatFile(n); err == nil {
			e.mirror.bytes = h.SizeBytes
		}
	}
	return nil
}

// freezeMirror runs before an unbound conversation is saved, forked or
// attached under a name that takes over its journal: the last mirror, a snapshot of that
// journal, is rewritten to stand on its own, so the session's later turns
// do not show through it. A mirror someone else rewrote is left alone; a
// failure is announced (the mirror then shows the session's later turns).
func (e *Engine) freezeMirror() {
	m := e.mirror
	if m.name == "" {
		return
	}
	h, err := e.store.StatFile(m.name)
	if err != nil || h.Revision != m.revision || h.JournalPos != m.pos {
		e.mirror = mirrorState{}
		return
	}
	if err := e.writeMirror(m.name, h, nil, false); err != nil {
		e.notifyf("%v; it will show the saved session's later turns", err)
	}
}

// mirrorState is what the last mirror wrote: the file's name, revision
// and size, and the journal position it covers.
type mirrorState struct {
	name     string
	revision int64
	bytes    int64
	pos      journal.Pos
}

// mirrorCurrent reports whether the mirror file name (its header h) needs
// no rewrite: it is the one this engine last wrote, it names a position
// in the conversation's journal (the one journal the conversation still
// writes), the journal holds the live history, no
// meta changed since, and the journal's tail since the file is within the
// snapshot policy's bound (snapshot.go). Load and the listing then read
// the file plus that tail, so a mirrored turn costs its journal append
// and not a rewrite of the whole conversation.
func (e *Engine) mirrorCurrent(name string, h session.Header) bool {
	m := e.mirror
	if m.name != name || m.pos.Seq == 0 || h.Revision != m.revision || h.JournalPos != m.pos || h.TranscriptID != e.JournalID() ||
		e.mustWrite || !e.inJournalView() {
		return false
	}
	tail := e.journal.Pos().Offset - m.pos.Offset
	return tail >= 0 && tail < max(snapshotMinTail, m.bytes/2)
}

// Rename gives session old the name new (session.Store.Rename: never
// replaces an existing session). A new name with a machine prefix is
// refused (ErrReservedName), as for every name a person gives. When old is
// the bound session the conversation stays bound to it under its new name.
// Errors: session.ErrInvalidName, session.ErrNotFound, session.ErrExists,
// ErrReservedName, or the store's I/O error.
func (e *Engine) Rename(old, new string) error {
	defer e.announceBinding()
	o, err := e.store.Name(old)
	if err != nil {
		return err
	}
	n, err := e.personName(new)
	if err != nil {
		return err
	}
	if err := e.landed(e.store.Rename(o, n)); err != nil {
		return err
	}
	if o == e.bound {
		e.bound = n
	}
	if e.onRename != nil {
		e.onRename(o, n)
	}
	return nil
}
