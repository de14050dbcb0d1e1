package command

import (
	"context"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/config"
)

// runResume is /resume [NAME]: continue session NAME, or the one the
// person picks (Env.Pick) when no name is given on a terminal.
func runResume(_ context.Context, env *Env, args []string) error {
	if len(args) > 1 {
		return i18n.Errorf("%w: /resume [NAME] (session names cannot contain spaces)", ErrUsage)
	}
	var name string
	switch {
	case len(args) == 1:
		name = args[0]
	case env.Pick != nil:
		picked, err := env.Pick()
		if err != nil {
			return err
		}
		if picked == "" {
			env.say("Nothing resumed.\n")
			return nil
		}
		name = picked
	default:
		return i18n.Errorf("%w: /resume needs a NAME here (/session list shows them)", ErrUsage)
	}
	return Resume(env, name, false)
}

// Resume continues session name in env's engine (conversation.Engine.Resume;
// create lets a missing person-named session be created at the first
// turn) and reports it: the autosave of what was live, whether the
// conversation is bound, and the last messages (Replay, as many as
// Config.ResumeReplay says).
func Resume(env *Env, name string, create bool) error {
	e := env.Engine
	autosaved, err := e.Resume(name, create)
	if err != nil {
		return err
	}
	reportAutosave(env, autosaved)
	switch {
	case e.Supersedes() != "":
		env.say("Continuing %q (%d messages) unbound: sessions chatcli made expire, so at exit a new autosave holds the whole conversation and replaces it; /session save NAME keeps it for good.\n",
			e.Supersedes(), len(e.History()))
	case len(e.History()) == 0 && !e.Store().Exists(e.Bound()):
		env.say("Attached to new session %q; it is written at the next turn.\n", e.Bound())
	default:
		env.say("Loaded session %q (%d messages).\n", e.Bound(), len(e.History()))
	}
	n := config.DefaultResumeReplay
	if env.Config != nil {
		n = env.Config.ResumeReplay
	}
	Replay(env.Lang, env.Out, e.History(), n, env.Reply)
	return nil
}

// resumeCommand is the /resume entry of Commands.
var resumeCommand = Command{Name: "resume", Usage: "/resume [NAME]", Summary: "continue a saved session (without NAME on a terminal: pick one); sessions chatcli made continue unbound",
	Run: runResume}
