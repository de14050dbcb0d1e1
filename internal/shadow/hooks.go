package shadow

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// ErrNotTracked is returned by AfterChange for a path BeforeChange was not
// called for: its prior state is unknown.
var ErrNotTracked = i18n.Errorf("shadow: change reported without BeforeChange")

// BeforeChange records the state of absPath (a file inside the workspace
// a tool is about to write, create, edit or delete) and of its ancestor
// folders, the first time each is touched; later calls for a tracked path
// cost no git run. An error (outside the workspace, unreadable file, git
// failure, lock not obtained within 30 s) means the prior state is not
// kept: the tool should not write. It fits tools.Hooks.BeforeChange.
func (r *Repo) BeforeChange(absPath string) error {
	rel, err := r.rel(absPath)
	if err != nil {
		return err
	}
	return r.locked(context.Background(), func(st *state) (bool, error) {
		var missing []string
		for _, p := range chain(rel) {
			if st.Paths[p] == nil {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			return false, nil
		}
		caps, err := r.capture(missing)
		if err != nil {
			return false, err
		}
		for _, p := range missing {
			st.Paths[p] = &record{Path: p, Now: caps[p], Base: caps[p]}
		}
		return true, nil
	})
}

// AfterChange records the state a tool left absPath in (and its tracked
// ancestor folders): the state a restore compares the disk with to tell a
// hand edit, and the state a later checkpoint holds. It returns
// ErrNotTracked when BeforeChange was not called for absPath. It fits
// tools.Hooks.AfterChange.
func (r *Repo) AfterChange(absPath string) error {
	rel, err := r.rel(absPath)
	if err != nil {
		return err
	}
	return r.locked(context.Background(), func(st *state) (bool, error) {
		if st.Paths[rel] == nil {
			return false, i18n.Errorf("%w: %s", ErrNotTracked, absPath)
		}
		var tracked []string
		for _, p := range chain(rel) {
			if st.Paths[p] != nil {
				tracked = append(tracked, p)
			}
		}
		caps, err := r.capture(tracked)
		if err != nil {
			return false, err
		}
		changed := false
		for _, p := range tracked {
			if st.Paths[p].Now != caps[p] {
				st.Paths[p].Now, changed = caps[p], true
			}
		}
		return changed, nil
	})
}

// Command records that run_command is about to run cmdline, dated by the
// clock: its effects cannot be undone, and restores to an earlier
// checkpoint list it. It fits tools.Hooks.Command; a failure to record is
// reported by the next Checkpoint instead (the hook has no error).
func (r *Repo) Command(cmdline string) {
	line := strings.ReplaceAll(cmdline, "\x00", "\uFFFD")
	err := r.locked(context.Background(), func(st *state) (bool, error) {
		st.Commands = append(st.Commands, Command{Time: r.now().UTC(), Line: line})
		return true, nil
	})
	if err != nil {
		r.mu.Lock()
		r.cmdErr = i18n.Join(r.cmdErr, err)
		r.mu.Unlock()
	}
}

// Checkpoint returns the id of the current state of the tracked files,
// to be stored with a conversation checkpoint (taken before each LLM
// request). It commits only when the state changed since the last
// checkpoint; otherwise it returns the last id without running git, and
// before any tool change it returns EmptyID without writing anything. Ids
// are 40 lowercase hex digits.
func (r *Repo) Checkpoint() (string, error) {
	r.mu.Lock()
	cmdErr := r.cmdErr
	r.cmdErr = nil
	r.mu.Unlock()
	if cmdErr != nil {
		return "", i18n.Errorf("shadow: a run_command line was not recorded: %w", cmdErr)
	}
	if id, ok, err := r.unchanged(); err != nil || ok {
		return id, err
	}
	var id string
	err := r.locked(context.Background(), func(st *state) (bool, error) {
		var ok bool
		var err error
		if id, ok, err = r.unchanged(); err != nil || ok {
			return false, err
		}
		id, err = r.commit(st)
		return false, err
	})
	return id, err
}

// unchanged returns the last checkpoint's id when the state file is the
// one it committed (or there is no state at all: EmptyID).
func (r *Repo) unchanged() (string, bool, error) {
	st, data, err := r.readState()
	if err != nil {
		return "", false, err
	}
	if len(st.Paths) == 0 && len(st.Commands) == 0 {
		return EmptyID, true, nil
	}
	head, err := storefile.ReadFile(r.headPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, i18n.Errorf("shadow: %w", err)
	}
	f := strings.Fields(string(head))
	if len(f) == 2 && f[1] == r.stateHash(data) {
		return f[0], true, nil
	}
	return "", false, nil
}

// commit stores st as a checkpoint after the one head names and records
// it in head.
func (r *Repo) commit(st *state) (string, error) {
	data := st.encode()
	parent := ""
	if head, err := storefile.ReadFile(r.headPath()); err == nil {
		if f := strings.Fields(string(head)); len(f) == 2 && idPattern.MatchString(f[0]) {
			parent = f[0]
		}
	}
	id, err := r.store.commit(st, data, parent)
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(r.headPath(), []byte(id+" "+r.stateHash(data)+"\n")); err != nil {
		return "", i18n.Errorf("shadow: %w", err)
	}
	return id, nil
}
