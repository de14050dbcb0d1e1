package shadow

import (
	"context"
	"os"
	"regexp"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ErrUnknownCheckpoint is returned by Plan and Restore for an id that is
// not a checkpoint of this workspace's repository.
var ErrUnknownCheckpoint = i18n.Errorf("shadow: unknown checkpoint id")

// Action is what a restore does to one path.
type Action string

// Actions, as plans and reports name them.
const (
	ActionRestore   Action = "restore"         // a file a tool modified gets its earlier content and mode back
	ActionRemove    Action = "remove"          // a file a tool created is deleted
	ActionRecreate  Action = "recreate"        // a file a tool deleted is written back
	ActionRemoveDir Action = "remove folder"   // a folder made for a created file is removed, when empty
	ActionMakeDir   Action = "recreate folder" // a folder removed since is made again
)

// Change is one path a restore sets back.
type Change struct {
	// Path is slash-separated, relative to the workspace.
	Path   string `json:"path"`
	Action Action `json:"action"`
	// HandEdited is set when the file on disk differs from what the tool
	// last left there: Restore asks before overwriting or removing it.
	HandEdited bool `json:"hand_edited,omitempty"`
	target     entry
	now        entry
	disk       entry
}

// Plan is what restoring the workspace to checkpoint ID would do.
type Plan struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	// Changes are ordered by path.
	Changes []Change `json:"changes"`
	// Commands are the run_command lines recorded since the checkpoint,
	// oldest first: effects a restore cannot undo.
	Commands []Command `json:"commands,omitempty"`
}

// Empty reports whether restoring changes nothing and no command ran since
// the checkpoint.
func (p Plan) Empty() bool { return len(p.Changes) == 0 && len(p.Commands) == 0 }

// HandEdited returns the paths Restore will ask about.
func (p Plan) HandEdited() []string {
	var out []string
	for _, c := range p.Changes {
		if c.HandEdited {
			out = append(out, c.Path)
		}
	}
	return out
}

var idPattern = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Plan returns what Restore(id) would do now, changing nothing. Errors:
// ErrUnknownCheckpoint for an id that is malformed or not in this
// repository, a missing workspace, a damaged manifest, a git failure.
func (r *Repo) Plan(id string) (Plan, error) {
	p := Plan{ID: id, Workspace: r.workspace}
	if err := checkWorkspace(r.workspace); err != nil {
		return p, err
	}
	if err := r.sealBeforeReading(); err != nil {
		return p, err
	}
	st, _, err := r.readState()
	if err != nil {
		return p, err
	}
	return r.plan(id, st)
}

// plan computes the plan of id against the state st.
func (r *Repo) plan(id string, st *state) (Plan, error) {
	p := Plan{ID: id, Workspace: r.workspace, Changes: []Change{}}
	at, err := r.checkpointState(id)
	if err != nil {
		return p, err
	}
	for _, rec := range st.sorted() {
		target := rec.Base
		if old := at.Paths[rec.Path]; old != nil {
			target = old.Now
		}
		if target.same(rec.Now) {
			continue
		}
		disk, err := look(r.abs(rec.Path))
		if err != nil {
			return p, err
		}
		c := Change{Path: rec.Path, target: target, now: rec.Now, disk: disk, Action: action(target, rec.Now)}
		c.HandEdited = rec.Now.Kind != kindDir && target.Kind != kindDir && !disk.same(rec.Now) && !disk.same(target)
		p.Changes = append(p.Changes, c)
	}
	if n := len(at.Commands); n < len(st.Commands) {
		p.Commands = append([]Command(nil), st.Commands[n:]...)
	}
	return p, nil
}

// action names the change from now to target.
func action(target, now entry) Action {
	switch {
	case target.Kind == kindDir:
		return ActionMakeDir
	case target.Kind == kindGone && now.Kind == kindDir:
		return ActionRemoveDir
	case target.Kind == kindGone:
		return ActionRemove
	case now.Kind == kindGone || now.Kind == kindDir:
		return ActionRecreate
	}
	return ActionRestore
}

// checkpointState reads the manifest of checkpoint id.
func (r *Repo) checkpointState(id string) (*state, error) {
	if id == EmptyID {
		return newState(), nil
	}
	if !idPattern.MatchString(id) {
		return nil, i18n.Errorf("%w %q: not 40 hex digits", ErrUnknownCheckpoint, id)
	}
	if _, err := os.Lstat(r.headPath()); err != nil {
		return nil, i18n.Errorf("%w %q: the workspace %s has no checkpoints", ErrUnknownCheckpoint, id, r.workspace)
	}
	data, ok, err := r.store.manifest(id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, i18n.Errorf("%w %q in %s", ErrUnknownCheckpoint, id, r.dir)
	}
	return decodeState(data, "checkpoint "+id)
}

// Restore sets the workspace back to checkpoint plan.ID (see Plan).
// Before overwriting or removing a file changed by hand since the tool
// last wrote it, it calls overwrite with the path (relative,
// slash-separated); false (or a nil overwrite) leaves that file alone and
// reports it in Report.Skipped. The plan
// is computed again under the repository's lock, so a change made since
// plan was taken is handled too; overwrite is asked while the lock is
// held. Restore goes on past failures and returns them joined; a
// cancelled ctx stops it between two paths.
func (r *Repo) Restore(ctx context.Context, plan Plan, overwrite func(path string) bool) (Report, error) {
	rep := Report{ID: plan.ID, Done: []Change{}}
	if err := checkWorkspace(r.workspace); err != nil {
		return rep, err
	}
	var errs []error
	err := r.locked(ctx, func(st *state) (bool, error) {
		p, err := r.plan(plan.ID, st)
		if err != nil {
			return false, err
		}
		rep.Commands = p.Commands
		errs = r.apply(ctx, p, st, overwrite, &rep)
		return len(rep.Done) > 0, nil
	})
	return rep, i18n.Join(append([]error{err}, errs...)...)
}

// Report is what Restore did.
type Report struct {
	ID   string   `json:"id"`
	Done []Change `json:"done"`
	// Skipped are paths left as they are, with why.
	Skipped []Skip `json:"skipped,omitempty"`
	// Commands are the run_command lines since the checkpoint, whose
	// effects remain.
	Commands []Command `json:"commands,omitempty"`
}

// Skip is a path a restore left alone.
type Skip struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}
