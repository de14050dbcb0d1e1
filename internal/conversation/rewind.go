package conversation

import (
	"errors"
	"slices"

	"github.com/chatcli/chatcli/internal/i18n"

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
	e.hashes.Of(e.history)
	e.checkpoints = rewind.Take(e.checkpoints, len(e.history), e.hashes.Digest(len(e.history)), prompt, code, e.now())
	if code != "" {
		e.checkpoints[len(e.checkpoints)-1].Workspace = e.code.Workspace()
	}
}

// resolve returns the history of each checkpoint of list (nil for one
// that cannot be rebuilt): a prefix of the live history when its digest
// matches there, else from the journal (journal.Resolve), which is read
// only when some checkpoint needs it.
func (e *Engine) resolve(list []rewind.Checkpoint) ([][]message.Message, error) {
	out := make([][]message.Message, len(list))
	e.hashes.Of(e.history)
	var want []journal.Prefix
	var at []int
	for i, cp := range list {
		if cp.Messages <= len(e.history) && e.hashes.Digest(cp.Messages) == cp.Digest {
			out[i] = slices.Clone(e.history[:cp.Messages])
			continue
		}
		want, at = append(want, cp.Prefix()), append(at, i)
	}
	if len(want) == 0 || e.journalDir == "" || !journal.ValidID(e.sess.TranscriptID) {
		return out, nil
	}
	found, err := journal.Resolve(journal.Path(e.journalDir, e.sess.TranscriptID), e.store.Key(), want)
	if err != nil {
		return out, err
	}
	for k, i := range at {
		out[i] = found[k]
	}
	return out, nil
}

// loadCheckpoints reads the session's checkpoints. They are not checked
// against the journal here (that would read it whole at every load after
// a compaction): a checkpoint whose messages neither the history nor the
// journal holds any more is dropped, with a notice, when a rewind asks
// for it.
func (e *Engine) loadCheckpoints() {
	list, err := rewind.Decode(e.sess.Checkpoints)
	if err != nil {
		e.notifyf("checkpoints of session %q ignored: %v", e.bound, err)
		list = nil
	}
	e.checkpoints = list
}

// Rewind restores checkpoint n (1 = newest, as Checkpoints orders them),
// drops the later checkpoints, and writes and journals the result. It
// returns the restored checkpoint.
func (e *Engine) Rewind(n int) (rewind.Checkpoint, error) {
	if adopted, err := e.adopt(); err != nil || adopted {
		if err == nil {
			err = i18n.Errorf("%w: the session changed in another window; /rewind list shows its checkpoints now", ErrNoCheckpoint)
		}
		return rewind.Checkpoint{}, err
	}
	if n < 1 || n > len(e.checkpoints) {
		return rewind.Checkpoint{}, i18n.Errorf("%w: %d (there are %d)", ErrNoCheckpoint, n, len(e.checkpoints))
	}
	i := len(e.checkpoints) - n
	cp := e.checkpoints[i]
	hs, err := e.resolve([]rewind.Checkpoint{cp})
	if err != nil {
		return cp, err
	}
	if hs[0] == nil {
		e.checkpoints = slices.Delete(e.checkpoints, i, i+1)
		e.notifyf("dropped checkpoint %q (%s): the journal no longer holds its messages",
			cp.Prompt, cp.At.Local().Format("15:04:05"))
		return cp, i18n.Errorf("%w: the journal no longer holds the messages of checkpoint %d; it was dropped", ErrNoCheckpoint, n)
	}
	e.checkpoints = e.checkpoints[:i+1]
	return cp, e.replace(hs[0], journal.ReasonRewind)
}

// UndoCompact restores the history exactly as it was before the last
// compaction, from the journal (so also after a restart). The checkpoints
// stay.
func (e *Engine) UndoCompact() (int, error) {
	if _, err := e.adopt(); err != nil {
		return 0, err
	}
	if e.journalDir == "" || !journal.ValidID(e.sess.TranscriptID) {
		return 0, i18n.Errorf("%w: the journal records no compaction of this conversation", ErrNoCheckpoint)
	}
	path, key := journal.Path(e.journalDir, e.sess.TranscriptID), e.store.Key()
	before, after, err := journal.LastRewrite(path, journal.ReasonCompact, key)
	if err != nil {
		return 0, err
	}
	if before == nil {
		return 0, i18n.Errorf("%w: the journal records no compaction of this conversation", ErrNoCheckpoint)
	}
	now := e.hashes.Of(e.history)
	if len(after) > len(now) || !slices.Equal(now[:len(after)], after) {
		return 0, i18n.Errorf("%w: the conversation moved on from the last compaction (a rewind or a new branch); /rewind list shows the checkpoints", ErrNoCheckpoint)
	}
	if dropped := len(now) - len(after); dropped > 0 {
		e.notifyf("the %d messages after the compaction are dropped too; the journal keeps them", dropped)
	}
	found, err := journal.MessagesOf(path, key, before)
	if err != nil {
		return 0, err
	}
	if found[0] == nil {
		return 0, i18n.Errorf("%w: the journal no longer holds the messages before the compaction", ErrNoCheckpoint)
	}
	h := found[0]
	return len(h), e.replace(h, journal.ReasonRewind)
}

// replace makes h the live history, journals the rewrite and writes it
// through. The history being replaced is journalled first (even for a
// session that had no journal yet), so it can always be restored.
//
// A history the journal already holds is not recorded again first: the
// rewrite's commit then finds what other windows wrote since this engine
// last read, and two rewrites of one base keep this side as a conflict
// fork (snapshot.go).
func (e *Engine) replace(h []message.Message, reason string) error {
	if e.journal == nil || !slices.Equal(e.journal.View(), e.hashes.Of(e.history)) {
		e.recordAlways(journal.ReasonSync)
	}
	e.history, e.dirty = slices.Clone(h), true
	e.repair()
	if err := e.valid.Validate(e.history); err != nil {
		return err
	}
	e.recordAlways(reason)
	return e.writeThrough()
}
