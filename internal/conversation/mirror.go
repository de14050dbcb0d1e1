package conversation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// Mirror writes the live history as the machine-made session name (one
// that starts with a MachinePrefixes entry, such as "mcp-<id>") without
// binding to it: the copy an unbound MCP or ACP session keeps after every
// turn (DESIGN.md §5, "MCP/ACP sessions mirror to mcp-<id>"). The copy
// names the live conversation's journal, continues the file's revisions
// and creation time, and is written durably by session.Store.Save (a
// failed write leaves the previous mirror byte-identical).
//
// The live history stays unsaved as far as Dirty, Load and New are
// concerned: the mirror is overwritten by the next conversation this
// engine holds, so replacing the conversation still keeps it elsewhere
// first. An empty history (no message other than system messages) is not
// mirrored, so a fresh conversation never blanks an earlier mirror.
//
// Errors: session.ErrInvalidName for a bad name, ErrReservedName wrapped
// for a name without a machine prefix (a person's session is never written
// by a mirror), and the store's errors (session.ErrCorrupt or
// session.ErrTooNew for an existing file it refuses to overwrite).
func (e *Engine) Mirror(name string) error {
	n, err := session.NormalizeName(name)
	if err != nil {
		return err
	}
	if !machineMade(n) {
		return fmt.Errorf("%w: a mirror is written only under a machine-made name (%s…), not %q",
			ErrReservedName, strings.Join(MachinePrefixes, "…, "), n)
	}
	if nonSystem(e.history) == 0 {
		return nil
	}
	e.record(journal.ReasonSync) // the copy's journal holds what it shows
	cps, err := rewind.Encode(e.checkpoints)
	if err != nil {
		return err
	}
	s := &session.Session{History: e.history, TranscriptID: e.JournalID(), Checkpoints: cps}
	h, err := e.store.Stat(n)
	switch {
	case err == nil:
		s.Revision, s.CreatedAt = h.Revision, h.CreatedAt
	case !errors.Is(err, session.ErrNotFound):
		return err
	}
	return e.store.Save(n, s)
}

// machineMade reports whether name starts with one of MachinePrefixes.
func machineMade(name string) bool {
	for _, p := range MachinePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
