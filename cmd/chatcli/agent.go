package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/shadow"
	"github.com/chatcli/chatcli/internal/tools"
)

// newToolbox builds the tools of agent and coder modes for configuration
// c: confined to root (the working directory at start), asking permit
// before every write and command unless c.Agent.AutoExec, and telling
// hooks about each change (file checkpoints). Permit's error (no
// terminal: repl.ErrNotApproved) refuses the action and its text is the
// tool result the model reads.
func newToolbox(c config.Config, root string, permit *repl.Permit, hooks tools.Hooks) (*tools.Box, error) {
	return tools.New(tools.Options{Root: root, AutoExec: c.Agent.AutoExec, Hooks: hooks,
		Permit: func(ctx context.Context, a tools.Action) (tools.Decision, error) {
			p, err := permit.Ask(ctx, a.Summary) // ctx pauses the Esc watch while asking
			return decisions[p], err
		}})
}

// decisions maps the terminal's answers to the tools' decisions.
var decisions = map[repl.Permission]tools.Decision{repl.PermissionNo: tools.DecisionNo,
	repl.PermissionYes: tools.DecisionYes, repl.PermissionAlways: tools.DecisionAlways}

// toolbox builds the toolbox and the file checkpoints of folder root (""
// for the working directory, f.workdir in tests), with f.permit (created when missing: no
// terminal, so every unapproved action is refused). Without git the tools
// still work and one notice says file checkpoints are off (code nil). A
// test's f.newToolbox replaces both.
func (f *factory) toolbox(c config.Config, root string) (tb conversation.Toolbox, code conversation.CodeCheckpoints, err error) {
	if f.permit == nil {
		f.permit = repl.NewPermit(nil, f.streams.Err)
	}
	if f.newToolbox != nil {
		tb, err = f.newToolbox(c, f.permit)
		return tb, nil, err
	}
	if root == "" {
		root = f.workdir
	}
	if root == "" {
		if root, err = os.Getwd(); err != nil {
			return nil, nil, i18n.Errorf("working directory: %w", err)
		}
	}
	var hooks tools.Hooks
	repo, err := shadow.Open(c.Home, root, c.EncryptionKey)
	switch {
	case errors.Is(err, shadow.ErrGitMissing):
		f.note(f.lang().Sprintf("git is not on PATH: file checkpoints are off (tools still work; /rewind restores the conversation only)"))
	case err != nil:
		return nil, nil, err
	default:
		hooks = tools.Hooks{BeforeChange: repo.BeforeChange, AfterChange: repo.AfterChange, Command: repo.Command}
		code = repo
	}
	box, err := newToolbox(c, root, f.permit, hooks)
	if err != nil {
		return nil, nil, err
	}
	f.closers = append(f.closers, box.Close)
	return box, code, nil
}

// toolActivity prints one line per tool call on standard error.
func (f *factory) toolActivity(a conversation.ToolActivity) {
	fmt.Fprintln(f.streams.Err, command.ToolLine(a))
}

// startMode puts the engine in the mode the flags ask for (--agent,
// --coder); both is a usage error.
func startMode(e *conversation.Engine, o *rootOptions) error {
	switch {
	case o.Agent && o.Coder:
		return i18n.Errorf("%w: --agent and --coder exclude each other", errFlags)
	case o.Agent:
		return e.SetMode(conversation.ModeAgent)
	case o.Coder:
		return e.SetMode(conversation.ModeCoder)
	}
	return nil
}
