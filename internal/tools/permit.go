package tools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// Action is a change a tool is about to make, shown to the user before it
// happens.
type Action struct {
	// Tool is the tool asking: "write_file", "edit_file" or "run_command".
	Tool string
	// Path is the absolute path, symlinks resolved, of the file a write or
	// edit changes; empty for run_command.
	Path string
	// Command is the shell command line of run_command; empty otherwise.
	Command string
	// Summary is one line for the prompt: "write main.go (1.2 KB, new
	// file)", "edit util.go (replace 1 match)", "run: go test ./...".
	Summary string
}

// Decision is the user's answer to an Action.
type Decision int

const (
	// DecisionNo refuses the action; it is the zero value, so an answer
	// that was never given refuses.
	DecisionNo Decision = iota
	// DecisionYes allows this one action.
	DecisionYes
	// DecisionAlways allows this action and every later one of the same
	// tool for the life of the Box ("always for this session").
	DecisionAlways
)

// String returns "no", "yes" or "always".
func (d Decision) String() string {
	switch d {
	case DecisionNo:
		return "no"
	case DecisionYes:
		return "yes"
	case DecisionAlways:
		return "always"
	}
	return "Decision(" + strconv.Itoa(int(d)) + ")"
}

// Hooks are called around the changes tools make, so a caller can keep file
// checkpoints. Each field may be nil.
type Hooks struct {
	// BeforeChange is called with the absolute path (symlinks resolved)
	// a write_file or edit_file is about to create or replace, after the
	// user allowed it; an error aborts the change and leaves the file
	// untouched.
	BeforeChange func(absPath string) error
	// AfterChange is called with the same path once the new content has
	// landed; its error is reported to the model with the success.
	AfterChange func(absPath string) error
	// Command is called with the command line a run_command is about to
	// run, after the user allowed it. Its effects cannot be undone.
	Command func(cmdline string)
}

// errNoPermit is the refusal when there is no way to ask.
var errNoPermit = errors.New("no way to ask for permission (not interactive and auto-exec is off); the user can allow changes with --agent-auto-exec")

// permit asks the user, unless AutoExec or an earlier DecisionAlways for the
// same tool, whether a may happen. A nil error means go ahead; the error
// otherwise is the message for the model.
func (b *Box) permit(ctx context.Context, a Action) error {
	if b.opts.AutoExec {
		return nil
	}
	b.mu.Lock()
	always := b.always[a.Tool]
	b.mu.Unlock()
	if always {
		return nil
	}
	if b.opts.Permit == nil {
		return fmt.Errorf("%s refused: %w", a.Summary, errNoPermit)
	}
	d, err := b.opts.Permit(ctx, a)
	if err != nil {
		return fmt.Errorf("%s refused: could not ask the user for permission: %v", a.Summary, err)
	}
	switch d {
	case DecisionYes:
		return nil
	case DecisionAlways:
		b.mu.Lock()
		b.always[a.Tool] = true
		b.mu.Unlock()
		return nil
	}
	return fmt.Errorf("the user declined %q, so it was not done; do not retry it, ask the user how to proceed", a.Summary)
}

// size formats n bytes for a Summary: "512 B", "1.2 KB", "3.4 MB"
// (1 KB = 1024 bytes).
func size(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1024*1024:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
}
