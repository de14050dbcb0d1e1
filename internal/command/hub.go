package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Hub is a surface's membership of a Conversation Hub thread (package
// hub): /hub join and leave change it, and the REPL publishes each turn
// through it and rotates it on /session load and new.
type Hub interface {
	// Join joins thread, leaving the one joined before. Errors: the relay
	// cannot be reached (chatcli gateway serves it).
	Join(thread string) error
	// Leave leaves the thread joined, if any.
	Leave()
	// Thread is the thread joined, "" when none.
	Thread() string
	// Epoch is the thread's epoch as last heard.
	Epoch() int
	// Publish relays a turn that started in epoch.
	Publish(epoch int, prompt, reply string)
	// Rotate starts a new epoch of the thread (another conversation).
	Rotate()
}

const hubUsage = "/hub [join NAME | leave]"

func runHub(_ context.Context, env *Env, args []string) error {
	if env.Hub == nil {
		return i18n.Errorf("%w: the Conversation Hub is not available here", ErrUsage)
	}
	switch {
	case len(args) == 2 && args[0] == "join":
		if err := env.Hub.Join(args[1]); err != nil {
			return err
		}
		env.say("Joined hub thread %q: the turns of its other members are shown as they end (/hub leave stops that).\n", args[1])
	case len(args) == 1 && args[0] == "leave":
		if t := env.Hub.Thread(); t != "" {
			env.Hub.Leave()
			env.say("Left hub thread %q.\n", t)
		} else {
			env.say("In no hub thread.\n")
		}
	case len(args) == 0:
		if t := env.Hub.Thread(); t != "" {
			env.say("In hub thread %q.\n", t)
		} else {
			env.say("In no hub thread; /hub join NAME joins one.\n")
		}
	default:
		return fmt.Errorf("%w: %s", ErrUsage, hubUsage)
	}
	return nil
}

// Rotates reports whether the command line starts another conversation
// (/session new, load or attach, /newsession, /clear, /resume), which
// rotates the hub thread joined.
func Rotates(line string) bool {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return false
	case f[0] == "/newsession" || f[0] == "/clear" || f[0] == "/resume":
		return true
	case f[0] == "/session" && len(f) > 1:
		return f[1] == "new" || f[1] == "load" || f[1] == "attach"
	}
	return false
}
