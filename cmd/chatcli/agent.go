package main

import (
	"context"
	"fmt"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/repl"
)

// newToolbox builds the tools of agent and coder modes for configuration c:
// confined to the working directory, asking permit before every write and
// command unless c.Agent.AutoExec. It is the one place the tools package is
// wired in:
//
//	root, err := os.Getwd()
//	…
//	return tools.New(tools.Options{Root: root, AutoExec: c.Agent.AutoExec,
//		Permit: func(ctx context.Context, a tools.Action) (tools.Decision, error) {
//			p, err := permit.Ask(ctx, a.Summary)
//			return map[repl.Permission]tools.Decision{repl.PermissionNo: tools.DecisionNo,
//				repl.PermissionYes: tools.DecisionYes, repl.PermissionAlways: tools.DecisionAlways}[p], err
//		}})
//
// Until that package is part of the build it returns no toolbox, and agent
// and coder modes report conversation.ErrNoToolbox.
func newToolbox(c config.Config, permit *repl.Permit) (conversation.Toolbox, error) {
	return nil, nil
}

// toolbox builds the toolbox through f.newToolbox (newToolbox unless a test
// replaced it), with f.permit (created when missing: no terminal, so
// every unapproved action is refused).
func (f *factory) toolbox(c config.Config) (conversation.Toolbox, error) {
	if f.permit == nil {
		f.permit = repl.NewPermit(nil, f.streams.Err)
	}
	build := f.newToolbox
	if build == nil {
		build = newToolbox
	}
	return build(c, f.permit)
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
		return fmt.Errorf("%w: --agent and --coder exclude each other", errFlags)
	case o.Agent:
		return e.SetMode(conversation.ModeAgent)
	case o.Coder:
		return e.SetMode(conversation.ModeCoder)
	}
	return nil
}

// agentOneShot runs `-p TASK --agent|--coder`: the tool loop runs to its
// end, tool activity goes to standard error one line per call, and only the
// final answer is printed on standard output.
func agentOneShot(ctx context.Context, o *rootOptions, e *conversation.Engine) error {
	reply, err := e.Turn(ctx, o.Prompt, nil)
	if reply.Content != "" && err == nil {
		fmt.Fprintln(o.f.streams.Out, reply.Content)
	}
	return err
}
