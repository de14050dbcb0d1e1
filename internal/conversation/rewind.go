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

// checkpoint records the live history as the state before prompt, with
// the files' state in agent and coder modes (see code.go).
func (e *Engine) checkpoint(prompt string) {
	code := e.codeCheckpoint()
	e.checkpoints = rewind.Take(e.checkpoints, e.history, prompt, code, e.now())
	if code != "" {
		e.checkpoints[len(e.checkpoints)-1].Workspace = e.code.Workspace()
	}
}

// known returns the messages checkpoints can be rebuilt from: every
// message the journal recorded (when withJournal) and the live history,
// whose copies win (they carry the current meta). The other results are
// the history the last compaction replaced and the one it produced (nil
// when there is none).
func (e *Engine) known(withJournal bool) (k rewind.Known, before, after []string, err error) {
	k = rewind.Known{}
	if withJournal && e.journalDir != "" && journal.ValidID(e.sess.TranscriptID) {
		var msgs map[string]message.Message
		msgs, before, after, err = journal.Catalog(journal.Path(e.journalDir, e.sess.TranscriptID), journal.ReasonCompact, e.store.Key())
		for h, m := range msgs {
			k[h] = m
		}
	}
	k.AddHistory(e.history)
	return k, before, after, err
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
	k, _, _, _ := e.known(false)
	if !allKnown(k, list) {
		if e.journalDir == "" { // cannot check now: keep them for a run with the journal
			e.checkpoints = list
			return
		}
		if k, _, _, err = e.known(true); err != nil {
			e.notify(fmt.Sprintf("journal unreadable while checking checkpoints: %v", err))
			e.checkpoints = list
			return
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
	if adopted, err := e.adopt(); err != nil || adopted {
		if err == nil {
			err = fmt.Errorf("%w: the session changed in another window; /rewind list shows its checkpoints now", ErrNoCheckpoint)
		}
		return rewind.Checkpoint{}, err
	}
	if n < 1 || n > len(e.checkpoints) {
		return rewind.Checkpoint{}, fmt.Errorf("%w: %d (there are %d)", ErrNoCheckpoint, n, len(e.checkpoints))
	}
	i := len(e.checkpoints) - n
	cp := e.checkpoints[i]
	k, _, _, _ := e.known(false)
	h, ok := k.Resolve(cp)
	if !ok {
		k, _, _, err := e.known(true)
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
	if _, err := e.adopt(); err != nil {
		return 0, err
	}
	k, before, after, err := e.known(true)
	if err != nil {
		return 0, err
	}
	if before == nil {
		return 0, fmt.Errorf("%w: the journal records no compaction of this conversation", ErrNoCheckpoint)
	}
	now := journal.HashHistory(e.history)
	if len(after) > len(now) || !slices.Equal(now[:len(after)], after) {
		return 0, fmt.Errorf("%w: the conversation moved on from the last compaction (a rewind or a new branch); /rewind list shows the checkpoints", ErrNoCheckpoint)
	}
	if dropped := len(now) - len(after); dropped > 0 {
		e.notify(fmt.Sprintf("the %d messages after the compaction are dropped too; the journal keeps them", dropped))
	}
	h, ok := k.Resolve(rewind.Checkpoint{Hashes: before})
	if !ok {
		return 0, fmt.Errorf("%w: the journal no longer holds the messages before the compaction", ErrNoCheckpoint)
	}
	return len(h), e.replace(h, journal.ReasonRewind)
}

// replace makes h the live history, journals the rewrite and writes it
// through. The history being replaced is journalled first (even for a
// session that had no journal yet), so it can always be restored.
func (e *Engine) replace(h []message.Message, reason string) error {
	e.recordAlways(journal.ReasonSync)
	e.history, e.dirty = slices.Clone(h), true
	e.repair()
	if err := message.Validate(e.history); err != nil {
		return err
	}
	e.recordAlways(reason)
	return e.writeThrough()
}
