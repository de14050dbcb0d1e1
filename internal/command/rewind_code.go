package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/shadow"
)

// Scope is what a rewind restores.
type Scope string

// The scopes of /rewind N SCOPE and `chatcli session rewind`.
const (
	ScopeConversation Scope = "conversation" // the messages only (the default)
	ScopeCode         Scope = "code"         // the workspace's files only
	ScopeBoth         Scope = "both"         // files first, then the messages
)

// parseScope reads a scope word; "" is ScopeConversation.
func parseScope(s string) (Scope, bool) {
	switch Scope(s) {
	case "", ScopeConversation:
		return ScopeConversation, true
	case ScopeCode, ScopeBoth:
		return Scope(s), true
	}
	return "", false
}

// RewindTo restores checkpoint n (1 = newest) in scope, reporting on
// env.Out. Restoring code prints the plan first, asks env.Confirm before
// overwriting each file changed by hand when env.Interactive (yes
// overwrites without asking; otherwise such files are skipped and listed),
// and lists the commands run since, whose effects cannot be undone. With
// ScopeBoth the files are restored first and the conversation only when
// that succeeded. Errors: those of Engine.Rewind and Engine.CodePlan
// (conversation.ErrNoCodeCheckpoint for a checkpoint without files),
// and the restore's own.
func RewindTo(ctx context.Context, env *Env, n int, scope Scope, yes bool) error {
	e := env.Engine
	if scope != ScopeConversation {
		if err := restoreCode(ctx, env, n, yes); err != nil {
			if scope == ScopeBoth {
				err = i18n.Errorf("%w; the conversation was not rewound", err)
			}
			return err
		}
		if scope == ScopeCode {
			return nil
		}
	}
	cp, err := e.Rewind(n)
	if err != nil {
		return err
	}
	env.say("Rewound to %s, before %q: %d messages.\n", cp.At.Local().Format("15:04:05"), cp.Prompt, cp.Messages)
	if scope == ScopeConversation && cp.Code != "" {
		if _, p, err := e.CodePlan(1); err == nil && len(p.Changes) > 0 {
			env.say("The files changed since: /rewind 1 code restores them (%d paths).\n", len(p.Changes))
		}
	}
	return nil
}

// errCodeRestoreFailed marks a restore that failed part way; the
// conversation is then left alone.
var errCodeRestoreFailed = i18n.Errorf("rewind: restoring the files failed")

// restoreCode shows and carries out the file restore of checkpoint n.
func restoreCode(ctx context.Context, env *Env, n int, yes bool) error {
	cp, plan, err := env.Engine.CodePlan(n)
	if err != nil {
		return err
	}
	label := fmt.Sprintf("checkpoint %d (%s, before %q)", n, cp.At.Local().Format("15:04:05"), cp.Prompt)
	if plan.Empty() {
		env.say("The files are as they were at %s: nothing to restore.\n", label)
		return nil
	}
	env.say("Files of %s:\n", label)
	writeCodePlan(env.Lang, env.Out, plan)
	overwrite := func(path string) bool {
		switch {
		case yes:
			return true
		case env.Interactive && env.Confirm != nil:
			return env.Confirm(env.Lang.Sprintf("%s was changed by hand since the tool wrote it. Overwrite it?", path))
		}
		return false
	}
	rep, err := env.Engine.RestoreCode(ctx, plan, overwrite)
	writeReport(env.Lang, env.Out, rep, env.Interactive || yes)
	if err != nil {
		return i18n.Errorf("%w: %w", errCodeRestoreFailed, err)
	}
	return nil
}

// writeCodePlan prints what a file restore will do, one path a line
// ("  restore a.go", "  remove b.go (changed by hand)"), then the commands
// whose effects stay ("  not undoable: 14:33:10 touch x.txt"), its notes
// in lang (nil: English); the actions are shadow's words.
func writeCodePlan(lang *i18n.Printer, w io.Writer, p shadow.Plan) {
	for _, c := range p.Changes {
		note := ""
		if c.HandEdited {
			note = lang.Sprintf(" (changed by hand since)")
		}
		fmt.Fprintf(w, "  %-15s %s%s\n", c.Action, c.Path, note)
	}
	writeCommands(lang, w, p.Commands)
}

// writeCommands lists commands run since a checkpoint.
func writeCommands(lang *i18n.Printer, w io.Writer, cmds []shadow.Command) {
	for _, c := range cmds {
		lang.Fprintf(w, "  not undoable: %s %s\n", c.Time.Local().Format("15:04:05"), c.Line)
	}
}

// writeReport says in lang what a restore did; asked tells whether
// hand-edited files could have been confirmed (otherwise the hint names
// --yes).
func writeReport(lang *i18n.Printer, w io.Writer, rep shadow.Report, asked bool) {
	lang.Fprintf(w, "Restored the files: %d paths set back.\n", len(rep.Done))
	if len(rep.Skipped) > 0 {
		var names []string
		for _, s := range rep.Skipped {
			names = append(names, s.Path+" ("+s.Why+")")
		}
		if asked {
			lang.Fprintf(w, "Left alone: %s.\n", strings.Join(names, ", "))
		} else {
			lang.Fprintf(w, "Left alone: %s; rerun with --yes to overwrite files changed by hand.\n", strings.Join(names, ", "))
		}
	}
	if len(rep.Commands) > 0 {
		lang.Fprintf(w, "Commands run since cannot be undone:\n")
		writeCommands(lang, w, rep.Commands)
	}
}

// offerScope asks, in the menu, what to restore of checkpoint n when its
// files changed since; ScopeConversation when they did not or there is
// no file checkpoint. ok is false when the person quit.
func offerScope(env *Env, n int) (Scope, bool) {
	_, p, err := env.Engine.CodePlan(n)
	if err != nil || len(p.Changes) == 0 {
		if errors.Is(err, conversation.ErrNoCodeCheckpoint) && env.Engine.HasCodeCheckpoints() {
			env.say("This checkpoint holds no file checkpoint: only the conversation is restored.\n")
		}
		return ScopeConversation, true
	}
	env.say("The files changed since this checkpoint (%d paths).\n", len(p.Changes))
	for {
		answer, err := env.Ask(env.Lang.Sprintf("Restore [1] conversation, [2] code, [3] both (default), q to quit: "))
		if err != nil {
			return "", false
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "1", "conversation":
			return ScopeConversation, true
		case "2", "code":
			return ScopeCode, true
		case "", "3", "both":
			return ScopeBoth, true
		case "q", "quit":
			return "", false
		}
		env.say("Answer 1, 2, 3 or q.\n")
	}
}
