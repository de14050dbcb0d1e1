package conversation

import (
	"context"
	"errors"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/shadow"
)

// CodeCheckpoints keeps file checkpoints of the workspace the tools work
// in; *shadow.Repo implements it. The engine takes one with each
// conversation checkpoint of an agent or coder turn and restores them on
// request (RestoreCode).
type CodeCheckpoints interface {
	// Checkpoint returns the id of the files' current state (40 hex
	// digits; shadow.EmptyID before any change).
	Checkpoint() (string, error)
	// Plan says what restoring checkpoint id would do, changing nothing;
	// shadow.ErrUnknownCheckpoint for an id this workspace does not know.
	Plan(id string) (shadow.Plan, error)
	// Restore sets the files back to plan.ID, asking overwrite before it
	// replaces a file changed by hand since a tool wrote it.
	Restore(ctx context.Context, plan shadow.Plan, overwrite func(relPath string) bool) (shadow.Report, error)
	// Workspace is the absolute path of the folder the checkpoints cover.
	Workspace() string
}

// ErrNoCodeCheckpoint is returned by CodePlan for a checkpoint that holds
// no file checkpoint (taken in chat mode, without git, or by an older
// version): there is no code to restore.
var ErrNoCodeCheckpoint = errors.New("rewind: the checkpoint holds no file checkpoint")

// ErrNoCodeCheckpoints is returned by CodePlan when the engine keeps no
// file checkpoints (no tools, or git is missing).
var ErrNoCodeCheckpoints = errors.New("rewind: file checkpoints are off (they need the tools of agent and coder modes and git)")

// codeCheckpoint returns the file checkpoint id to store with a
// conversation checkpoint: "" in chat mode or without CodeCheckpoints. A
// failure is reported once per engine through Notify and gives "".
func (e *Engine) codeCheckpoint() string {
	if e.code == nil || e.mode == ModeChat {
		return ""
	}
	id, err := e.code.Checkpoint()
	if err != nil {
		if !e.codeFailed {
			e.notifyf("file checkpoint not taken (rewinding this turn restores the conversation only): %v", err)
		}
		e.codeFailed = true
		return ""
	}
	return id
}

// HasCodeCheckpoints reports whether the engine keeps file checkpoints.
func (e *Engine) HasCodeCheckpoints() bool { return e.code != nil }

// CodePlan returns checkpoint n (1 = newest, as Checkpoints orders them)
// and what restoring its files would do now, changing nothing. Errors:
// ErrNoCheckpoint for a number out of range, ErrNoCodeCheckpoints,
// ErrNoCodeCheckpoint for a checkpoint without a file checkpoint id, and
// shadow.ErrUnknownCheckpoint (wrapped) when this workspace's repository
// does not hold the id (the session was worked on in another folder).
func (e *Engine) CodePlan(n int) (cp rewind.Checkpoint, p shadow.Plan, err error) {
	if n < 1 || n > len(e.checkpoints) {
		return cp, p, i18n.Errorf("%w: %d (there are %d)", ErrNoCheckpoint, n, len(e.checkpoints))
	}
	cp = e.checkpoints[len(e.checkpoints)-n]
	if e.code == nil {
		return cp, p, ErrNoCodeCheckpoints
	}
	if cp.Code == "" {
		return cp, p, i18n.Errorf("%w: checkpoint %d (%q) was taken in chat mode or before file checkpoints existed; nothing to restore",
			ErrNoCodeCheckpoint, n, cp.Prompt)
	}
	if cp.Workspace != "" && cp.Workspace != e.code.Workspace() {
		return cp, p, i18n.Errorf("%w: checkpoint %d was taken in another workspace (%s, not %s): run this in the folder the session worked in",
			shadow.ErrUnknownCheckpoint, n, cp.Workspace, e.code.Workspace())
	}
	p, err = e.code.Plan(cp.Code)
	if errors.Is(err, shadow.ErrUnknownCheckpoint) {
		err = i18n.Errorf("%w; checkpoint %d was taken in another workspace: run this in the folder the session worked in", err, n)
	}
	return cp, p, err
}

// RestoreCode sets the workspace's files back as plan says (from
// CodePlan), calling overwrite before replacing a file changed by hand.
// The conversation is not changed: Rewind does that.
func (e *Engine) RestoreCode(ctx context.Context, plan shadow.Plan, overwrite func(relPath string) bool) (shadow.Report, error) {
	if e.code == nil {
		return shadow.Report{}, ErrNoCodeCheckpoints
	}
	return e.code.Restore(ctx, plan, overwrite)
}
