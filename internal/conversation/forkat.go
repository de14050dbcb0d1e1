package conversation

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// ErrNoMessage is returned for a message position the transcript does not
// have.
var ErrNoMessage = errors.New("conversation: no such message")

// ForkAt copies messages 1..n of the conversation's transcript (numbered
// as Transcript, `session transcript show`, numbers them: messages a
// compaction later replaced included) into the new session name and binds
// to it, like Fork. The session the conversation was bound to is left as
// it is (Detach); unsaved content of an unbound conversation is autosaved
// first, its name returned. A cut between a tool call and its result is
// repaired as a load would repair it. The fork starts without checkpoints.
//
// Errors: ErrNoMessage for n outside 1..len(transcript); session.ErrExists,
// session.ErrInvalidName, ErrReservedName for name; the transcript's read
// errors and Fork's.
func (e *Engine) ForkAt(name string, n int) (autosaved string, err error) {
	nn, err := e.freeName(name)
	if err != nil {
		return "", err
	}
	t, err := e.Transcript()
	if err != nil {
		return "", err
	}
	if n < 1 || n > len(t.Messages) {
		return "", i18n.Errorf("%w: %d (the transcript has %d messages; /session transcript show 1 lists them)", ErrNoMessage, n, len(t.Messages))
	}
	return e.forkWith(nn, slices.Clone(t.Messages[:n]), n, nil)
}

// ForkCheckpoint copies the conversation as it was at checkpoint k (1 =
// newest, as Checkpoints and the rewind menu number them) into the new
// session name and binds to it, like ForkAt; the fork keeps checkpoints
// 1..k's older ones, k included, so it can rewind further back. The
// checkpoint's messages come from the live history or the journal, as a
// rewind finds them.
//
// Errors: ErrNoCheckpoint for k outside 1..len(checkpoints) or a
// checkpoint the journal no longer holds; the name errors of ForkAt; the
// journal's read errors and Fork's.
func (e *Engine) ForkCheckpoint(name string, k int) (autosaved string, err error) {
	nn, err := e.freeName(name)
	if err != nil {
		return "", err
	}
	if k < 1 || k > len(e.checkpoints) {
		return "", i18n.Errorf("%w: %d (there are %d; /rewind list or `chatcli session rewind NAME --list` numbers them)", ErrNoCheckpoint, k, len(e.checkpoints))
	}
	i := len(e.checkpoints) - k
	cp := e.checkpoints[i]
	hs, err := e.resolve([]rewind.Checkpoint{cp})
	if err != nil {
		return "", err
	}
	if hs[0] == nil {
		return "", i18n.Errorf("%w: the journal no longer holds the messages of checkpoint %d", ErrNoCheckpoint, k)
	}
	return e.forkWith(nn, hs[0], cp.Messages, slices.Clone(e.checkpoints[:i+1]))
}

// freeName is name checked as a new session's name that no session has.
func (e *Engine) freeName(name string) (string, error) {
	nn, err := e.personName(name)
	if err != nil {
		return "", err
	}
	if e.store.Exists(nn) {
		return "", fmt.Errorf("%w: %q", session.ErrExists, nn)
	}
	return nn, nil
}

// forkWith makes h the history of the new session name, forked from
// message at of the conversation, with checkpoints cps: the bound session
// is left as it is (Detach), an unbound conversation's unsaved content is
// autosaved first (its name returned), and then Fork writes the journal
// and the session.
func (e *Engine) forkWith(name string, h []message.Message, at int, cps []rewind.Checkpoint) (autosaved string, err error) {
	lin := e.lineage(session.LineageFork, at)
	if e.bound != "" {
		e.Detach()
	} else if autosaved, err = e.keepUnsaved(); err != nil {
		return "", err
	}
	if err := e.replace(h, journal.ReasonRewind); err != nil {
		return autosaved, err
	}
	e.checkpoints = cps
	return autosaved, e.forkAs(name, lin)
}

// lineage is the lineage of a session made now (how: kind) from the
// bound one, starting from its first at messages. Unbound, it is the
// session Detach left (sharing at most the messages it had then), else
// the mirror (mcp-…) the conversation was last written to, or nil for a
// conversation no session held.
func (e *Engine) lineage(kind string, at int) *session.Lineage {
	if e.bound == "" {
		if e.sess.Lineage == nil && e.mirror.name != "" {
			return &session.Lineage{Parent: e.mirror.name, ParentTranscript: e.JournalID(), At: at, Kind: kind, CreatedAt: e.now().UTC()}
		}
		if e.sess.Lineage == nil {
			return nil
		}
		l := *e.sess.Lineage
		l.Kind, l.At, l.CreatedAt = kind, min(at, l.At), e.now().UTC()
		return &l
	}
	return &session.Lineage{Parent: e.bound, ParentTranscript: e.parentJournal(), At: at, Kind: kind, CreatedAt: e.now().UTC()}
}

// parentJournal is the journal the bound file names, for a lineage made
// from it: the engine's journal, except with write-through off, when the
// engine commits to a copy no session names (goPrivate) and the file,
// read or written by this engine, still names the one it did then.
func (e *Engine) parentJournal() string {
	if e.noWriteThrough && e.seen.Revision != 0 && journal.ValidID(e.fileJournal) && e.journalDir != "" {
		return e.fileJournal
	}
	return e.JournalID()
}
