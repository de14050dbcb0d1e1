package conversation

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chatcli/chatcli/internal/journal"
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
	nn, err := e.personName(name)
	if err != nil {
		return "", err
	}
	if e.store.Exists(nn) {
		return "", fmt.Errorf("%w: %q", session.ErrExists, nn)
	}
	t, err := e.Transcript()
	if err != nil {
		return "", err
	}
	if n < 1 || n > len(t.Messages) {
		return "", fmt.Errorf("%w: %d (the transcript has %d messages; /session transcript show 1 lists them)", ErrNoMessage, n, len(t.Messages))
	}
	h := slices.Clone(t.Messages[:n])
	if e.bound != "" {
		e.Detach()
	} else if autosaved, err = e.keepUnsaved(); err != nil {
		return "", err
	}
	if err := e.replace(h, journal.ReasonRewind); err != nil {
		return autosaved, err
	}
	e.checkpoints = nil
	return autosaved, e.Fork(nn)
}
