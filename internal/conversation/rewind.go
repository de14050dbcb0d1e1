package conversation

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/rewind"
)

// ErrNoCheckpoint is returned for a checkpoint number that does not exist
// or a compaction that cannot be undone.
var ErrNoCheckpoint = errors.New("rewind: no such checkpoint")

// Checkpoints returns the checkpoints, newest first (the menu's order:
// number 1 is the newest).
func (e *Engine) Checkpoints() []rewind.Checkpoint {
	out := slices.Clone(e.checkpoints)
	slices.Reverse(out)
	return out
}

// checkpoint records the live history as the state before prompt.
func (e *Engine) checkpoint(prompt string) {
	e.checkpoints = rewind.Take(e.checkpoints, e.history, prompt, e.now())
}

// known returns the messages checkpoints can be rebuilt from: the live
// history and, when withJournal, every message the journal recorded. The
// second result is the history the last compaction replaced (nil if none).
func (e *Engine) known(withJournal bool) (rewind.Known, []string, error) {
	k := rewind.Known{}
	k.AddHistory(e.history)
	if !withJournal || e.journalDir == "" || e.sess.TranscriptID == "" {
		return k, nil, nil
	}
	msgs, before, err := journal.Catalog(journal.Path(e.journalDir, e.sess.TranscriptID), journal.ReasonCompact)
	for h, m := range msgs {
		k[h] = m
	}
	return k, before, err
}

// loadCheckpoints reads the session's checkpoints and drops, with a notice,
// those whose messages neither the history nor the journal holds.
func (e *Engine) loadCheckpoints() {
	list, err := rewind.Decode(e.sess.Checkpoints)
	if err != nil {
		e.notify(fmt.Sprintf("checkpoints of session %q ignored: %v", e.bound, err))
		e.checkpoints = nil
		return
	}
	k, _, _ := e.known(false)
	if !allKnown(k, list) {
		if k, _, err = e.known(true); err != nil {
			e.notify(fmt.Sprintf("journal unreadable while checking checkpoints: %v", err))
		}
	}
	e.checkpoints = nil
	for _, cp := range list {
		if k.Has(cp) {
			e.checkpoints = append(e.checkpoints, cp)
			continue
		}
		e.notify(fmt.Sprintf("dropped checkpoint %q (%s): the journal no longer holds its messages",
			cp.Prompt, cp.At.Local().Format("15:04:05")))
	}
}

func allKnown(k rewind.Known, list []rewind.Checkpoint) bool {
	for _, cp := range list {
		if !k.Has(cp) {
			return false
		}
	}
	return true
}

// Rewind restores checkpoint n (1 = newest, as Checkpoints orders them),
// drops the later checkpoints, and writes and journals the result. It
// returns the restored checkpoint.
func (e *Engine) Rewind(n int) (rewind.Checkpoint, error) {
	if n < 1 || n > len(e.checkpoints) {
		return rewind.Checkpoint{}, fmt.Errorf("%w: %d (there are %d)", ErrNoCheckpoint, n, len(e.checkpoints))
	}
	i := len(e.checkpoints) - n
	cp := e.checkpoints[i]
	k, _, _ := e.known(false)
	h, ok := k.Resolve(cp)
	if !ok {
		k, _, err := e.known(true)
		if err != nil {
			return cp, err
		}
		if h, ok = k.Resolve(cp); !ok {
			return cp, fmt.Errorf("%w: the journal no longer holds the messages of checkpoint %d", ErrNoCheckpoint, n)
		}
	}
	e.checkpoints = e.checkpoints[:i+1]
	return cp, e.replace(h, journal.ReasonRewind)
}

// UndoCompact restores the history exactly as it was before the last
// compaction, from the journal (so also after a restart). The checkpoints
// stay.
func (e *Engine) UndoCompact() (int, error) {
	k, before, err := e.known(true)
	if err != nil {
		return 0, err
	}
	if before == nil {
		return 0, fmt.Errorf("%w: the journal records no compaction of this conversation", ErrNoCheckpoint)
	}
	h, ok := k.Resolve(rewind.Checkpoint{Hashes: before})
	if !ok {
		return 0, fmt.Errorf("%w: the journal no longer holds the messages before the compaction", ErrNoCheckpoint)
	}
	return len(h), e.replace(h, journal.ReasonRewind)
}

// replace makes h the live history, journals the rewrite and writes it
// through.
func (e *Engine) replace(h []message.Message, reason string) error {
	e.history, e.dirty = slices.Clone(h), true
	e.record(reason)
	return e.writeThrough()
}
