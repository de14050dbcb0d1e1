package command

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/session"
)

type verb struct {
	name, usage, summary string
	// nargs is the number of positional arguments, or anyArgs for verbs that
	// take free text or optional arguments and check them themselves.
	nargs int
	run   func(env *Env, args []string, yes bool) error
}

const anyArgs = -1

var sessionVerbs []verb

// takesName marks the verbs whose argument is an existing session.
var takesName = map[string]bool{"load": true, "delete": true, "attach": true, "save": true, "rename": true, "show": true}

func init() {
	sessionVerbs = []verb{
		{"save", "save NAME [--yes]", "save the conversation as NAME and bind to it (--yes replaces another session)", 1, sessionSave},
		{"load", "load NAME", "replace the conversation with session NAME and bind to it (an autosave continues unbound)", 1, sessionLoad},
		{"list", "list", "list saved sessions, newest first", 0, sessionList},
		{"delete", "delete NAME [--yes]", "move session NAME to the trash (chatcli session restore NAME brings it back)", 1, sessionDelete},
		{"new", "new", "start a new, unbound conversation", 0, sessionNew},
		{"fork", "fork NEW [--at N | --checkpoint K]", "copy the conversation (with --at, its messages 1..N as transcript show numbers them; with --checkpoint, its state at checkpoint K as /rewind list numbers them) into session NEW and bind to it", anyArgs, sessionFork},
		{"title", "title TEXT", "give the bound session the title TEXT (listings and the picker show it)", anyArgs, sessionTitle},
		{"rename", "rename [OLD] NEW", "rename session OLD, or the bound session, to NEW (never replaces a session)", anyArgs, sessionRename},
		{"attach", "attach NAME", "bind to NAME: every turn is written through", 1, sessionAttach},
		{"detach", "detach", "stop writing turns to the bound session", 0, sessionDetach},
		{"show", "show [NAME]", "print the messages of session NAME, or of this conversation", anyArgs, sessionShow},
		{"status", "status", "show the bound session and the conversation size", 0, sessionStatus},
		{"export", "export md|jsonl [PATH] [--yes]", "write the whole transcript (journal) as Markdown or JSONL (--yes replaces PATH)", anyArgs, sessionExport},
		{"transcript", "transcript show N [COUNT] | stats | search QUERY | export [md|jsonl] [PATH]", "read the journal: messages from #N, statistics, ranked search, export (as /session export)", anyArgs, sessionTranscript},
		{"search", "search QUERY", "search every session and journal", anyArgs, sessionSearch},
	}
}

func runSession(_ context.Context, env *Env, args []string) error {
	if len(args) == 0 || args[0] == "help" {
		for _, v := range sessionVerbs {
			fmt.Fprintf(env.Out, "  /session %-22s %s\n", v.usage, v.summary)
		}
		return nil
	}
	rest, yes := stripYes(args[1:])
	return RunSessionVerb(env, args[0], rest, yes)
}

// RunSessionVerb runs `/session VERB ARGS…` with arguments already split
// (a name is one argument; free text such as a search query may be one or
// several) and --yes given as yes: the entry point of surfaces that take
// structured input, such as the MCP server. What the verb reports goes to
// env.Out, warnings to env.Err. Errors: an ErrUsage error for an unknown
// verb or the wrong number of arguments, else the verb's own error (see
// conversation.Engine: session.ErrNotFound, session.ErrInvalidName,
// session.ErrExists, conversation.ErrReservedName, …).
func RunSessionVerb(env *Env, verb string, args []string, yes bool) error {
	for _, v := range sessionVerbs {
		if v.name != verb {
			continue
		}
		if v.nargs != anyArgs && len(args) != v.nargs {
			if len(args) > v.nargs && v.nargs == 1 {
				return i18n.Errorf("%w: session names cannot contain spaces: %q; %s", ErrUsage, strings.Join(args, " "), session.NameRule)
			}
			return fmt.Errorf("%w: /session %s", ErrUsage, v.usage)
		}
		return v.run(env, args, yes)
	}
	return i18n.Errorf("%w: unknown verb %q; /session help lists them", ErrUsage, verb)
}

func stripYes(args []string) ([]string, bool) {
	var out []string
	yes := false
	for _, a := range args {
		if a == "--yes" || a == "-y" {
			yes = true
			continue
		}
		out = append(out, a)
	}
	return out, yes
}

func sessionSave(env *Env, a []string, yes bool) error {
	err := env.Engine.Save(a[0], yes)
	if errors.Is(err, session.ErrExists) && env.Interactive && env.Confirm != nil &&
		env.Confirm(env.Lang.Sprintf("Session %q exists; replace it with this conversation?", a[0])) {
		err = env.Engine.Save(a[0], true)
	}
	if err != nil {
		return err
	}
	env.say("Saved %d messages as session %q; later turns are saved there too.\n", len(env.Engine.History()), env.Engine.Bound())
	return nil
}

func sessionLoad(env *Env, a []string, _ bool) error { return Resume(env, a[0], false) }

func sessionList(env *Env, _ []string, _ bool) error {
	list, err := env.Engine.Store().List()
	if err != nil {
		return err
	}
	for _, w := range ListWarnings(env.Lang, list) {
		env.warn(w)
	}
	WriteListAs(env.Out, list, env.Engine.Bound(), ListFormat{Lang: env.Lang})
	return nil
}

func sessionDelete(env *Env, a []string, yes bool) error {
	name := a[0]
	if !yes {
		if !env.Interactive || env.Confirm == nil {
			return i18n.Errorf("%w: deleting needs confirmation: /session delete %s --yes", ErrUsage, name)
		}
		if !env.Confirm(env.Lang.Sprintf("Delete session %q?", name)) {
			env.say("Not deleted.\n")
			return nil
		}
	}
	cleared, err := env.Engine.Delete(name)
	if err != nil {
		return err
	}
	env.say("Session %q moved to the trash; `chatcli session restore %s` brings it back.\n", name, name)
	if cleared {
		env.say("It was the active session: the conversation was cleared and is no longer bound.\n")
	}
	return nil
}

func sessionNew(env *Env, _ []string, _ bool) error {
	autosaved, err := env.Engine.New()
	if err != nil {
		return err
	}
	reportAutosave(env, autosaved)
	env.say("Started a new conversation.\n")
	return nil
}

func sessionFork(env *Env, a []string, _ bool) error {
	from := env.Engine.Bound()
	name, at, checkpoint, err := forkArgs(a)
	if err != nil {
		return err
	}
	if checkpoint > 0 {
		autosaved, err := env.Engine.ForkCheckpoint(name, checkpoint)
		reportAutosave(env, autosaved)
		if err != nil {
			return err
		}
		env.say("Forked the conversation as it was at checkpoint %d into %q (%d messages); now bound to it.\n", checkpoint, env.Engine.Bound(), len(env.Engine.History()))
		return nil
	}
	if at > 0 {
		autosaved, err := env.Engine.ForkAt(name, at)
		reportAutosave(env, autosaved)
		if err != nil {
			return err
		}
		env.say("Forked messages 1-%d into %q; now bound to it.\n", at, env.Engine.Bound())
		return nil
	}
	err = env.Engine.Fork(name)
	if errors.Is(err, session.ErrExists) {
		return i18n.Errorf("%w; pick another name for the fork, or /session save %s --yes to replace it", err, name)
	}
	if err != nil {
		return err
	}
	if from != "" {
		env.say("Forked %q into %q (%d messages); now bound to %[2]q, the original is untouched.\n", from, env.Engine.Bound(), len(env.Engine.History()))
	} else {
		env.say("Forked the conversation into %q (%d messages); now bound to it.\n", env.Engine.Bound(), len(env.Engine.History()))
	}
	return nil
}

func sessionTitle(env *Env, a []string, _ bool) error {
	if len(a) == 0 {
		return fmt.Errorf("%w: /session title TEXT", ErrUsage)
	}
	if err := env.Engine.SetTitle(strings.Join(a, " ")); err != nil {
		if errors.Is(err, conversation.ErrNotBound) {
			return i18n.Errorf("%w: no session is bound: /session save NAME names this conversation first", ErrUsage)
		}
		return err
	}
	env.say("Session %q is titled %q.\n", env.Engine.Bound(), strings.Join(a, " "))
	return nil
}

func sessionRename(env *Env, a []string, _ bool) error {
	var old, new string
	switch len(a) {
	case 1:
		if old, new = env.Engine.Bound(), a[0]; old == "" {
			return i18n.Errorf("%w: no session is bound: /session rename OLD NEW, or /session save NAME to name this conversation", ErrUsage)
		}
	case 2:
		old, new = a[0], a[1]
	default:
		return fmt.Errorf("%w: /session rename [OLD] NEW", ErrUsage)
	}
	err := env.Engine.Rename(old, new)
	if errors.Is(err, session.ErrExists) {
		return i18n.Errorf("%w; pick another name (rename never replaces a session)", err)
	}
	if err != nil {
		return err
	}
	env.say("Renamed %q to %q.\n", old, new)
	return nil
}

// forkArgs reads `NEW [--at N | --checkpoint K]`; at and checkpoint are
// 0 when not given.
func forkArgs(a []string) (name string, at, checkpoint int, err error) {
	usage := fmt.Errorf("%w: /session fork NEW [--at N | --checkpoint K]", ErrUsage)
	switch {
	case len(a) == 1:
		return a[0], 0, 0, nil
	case len(a) == 3 && a[1] == "--at":
		n, err := strconv.Atoi(a[2])
		if err != nil || n < 1 {
			return "", 0, 0, i18n.Errorf("%w: --at %q: want a message number, 1 or more (/session transcript show 1 numbers them)", ErrUsage, a[2])
		}
		return a[0], n, 0, nil
	case len(a) == 3 && a[1] == "--checkpoint":
		k, err := strconv.Atoi(a[2])
		if err != nil || k < 1 {
			return "", 0, 0, i18n.Errorf("%w: --checkpoint %q: want a checkpoint number, 1 or more (/rewind list numbers them)", ErrUsage, a[2])
		}
		return a[0], 0, k, nil
	}
	return "", 0, 0, usage
}

func sessionAttach(env *Env, a []string, _ bool) error {
	autosaved, created, err := env.Engine.Attach(a[0])
	if err != nil {
		return err
	}
	reportAutosave(env, autosaved)
	if created {
		env.say("Attached to new session %q; it is written at the next turn.\n", env.Engine.Bound())
	} else {
		env.say("Attached to session %q (%d messages); every turn is written through.\n", env.Engine.Bound(), len(env.Engine.History()))
	}
	return nil
}

func sessionDetach(env *Env, _ []string, _ bool) error {
	name := env.Engine.Detach()
	if name == "" {
		env.say("No session is bound.\n")
		return nil
	}
	env.say("Detached from %q; the conversation continues unbound.\n", name)
	return nil
}

func sessionStatus(env *Env, _ []string, _ bool) error {
	e := env.Engine
	n := len(e.History())
	p := e.Provider()
	if e.Bound() == "" {
		env.say("No session bound (%d messages, %s). /session save NAME or /session attach NAME binds one.\n", n, unsaved(env.Lang, e.Dirty()))
	} else {
		path, _ := e.Store().Path(e.Bound())
		env.say("Bound to session %q (%d messages), written through to %s\n", e.Bound(), n, path)
	}
	env.say("Provider %s, model %s\n", p.Name(), p.Model())
	return nil
}

// unsaved says in lang whether the conversation holds turns no session has.
func unsaved(lang *i18n.Printer, dirty bool) string {
	if dirty {
		return lang.Sprintf("unsaved")
	}
	return lang.Sprintf("nothing unsaved")
}

func reportAutosave(env *Env, name string) {
	if name != "" {
		env.say("The previous conversation was saved as %q.\n", name)
	}
}

// ErrorLine is the one line a person sees for a command or turn error,
// its control characters made visible (render.Visible).
func ErrorLine(err error) string { return errorLine(err, err.Error()) }

// errorLine is the line of err whose text, in some language, is text: a
// usage error without its "usage: " label.
func errorLine(err error, text string) string {
	if errors.Is(err, ErrUsage) {
		return render.Visible(strings.TrimPrefix(text, "usage: "))
	}
	return render.Visible(message.ValidUTF8(text)) // it may quote a server's or a file's text
}

// sessionShow is /session show [NAME]: the messages of a stored session, or
// without NAME those of the live conversation.
func sessionShow(env *Env, a []string, _ bool) error {
	switch len(a) {
	case 0:
		e := env.Engine
		if e.Bound() != "" {
			env.say("This conversation · %d messages · bound to session %s\n", len(e.History()), e.Bound())
		} else {
			env.say("This conversation · %d messages · not bound to a session\n", len(e.History()))
		}
		WriteTranscript(env.Out, e.History())
		return nil
	case 1:
		s, err := env.Engine.Store().Load(a[0])
		if err != nil {
			return err
		}
		warnSaid(env, JournalWarnings(s.JournalWarnings))
		WriteSessionIn(env.Lang, env.Out, a[0], s)
		return nil
	}
	return fmt.Errorf("%w: /session show [NAME]", ErrUsage)
}
