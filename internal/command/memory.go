package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/memory"
)

const memoryUsage = "/memory save TEXT | list | forget N | show"

// memoryHeadless is memoryUsage's headless form.
const memoryHeadless = "chatcli memory save TEXT | list | forget N | show"

// memoryStore opens the global memory of the configured CHATCLI_HOME.
func memoryStore(env *Env) (*memory.Store, error) {
	if env.Config == nil {
		return nil, i18n.Errorf("memory is not available here (no configuration)")
	}
	return memory.Open(env.Config.Home, env.Config.EncryptionKey), nil
}

// runMemory is /memory (and `chatcli memory`): global notes sent with
// every request of every session (internal/memory).
func runMemory(_ context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		args = []string{"list"}
	}
	st, err := memoryStore(env)
	if err != nil {
		return err
	}
	switch args[0] {
	case "save", "add":
		n, err := st.Save(strings.Join(args[1:], " "))
		if err != nil {
			return fmt.Errorf("%w (%s)", err, env.usage(memoryUsage, memoryHeadless))
		}
		env.say("Saved note %d to memory; every session's requests include it.\n", n)
	case "list":
		notes, err := st.List()
		if err != nil {
			return err
		}
		if len(notes) == 0 {
			if env.Headless {
				env.say("Memory is empty (`chatcli memory save TEXT` adds a note).\n")
			} else {
				env.say("Memory is empty (/memory save TEXT adds a note).\n")
			}
		}
		for i, n := range notes {
			fmt.Fprintf(env.Out, "%3d  %s  %s\n", i+1, n.SavedAt.Format("2006-01-02 15:04"), strings.ReplaceAll(n.Text, "\n", " "))
		}
	case "forget", "delete", "rm":
		if len(args) != 2 {
			if env.Headless {
				return i18n.Errorf("%w: chatcli memory forget N (N from `chatcli memory list`)", ErrUsage)
			}
			return i18n.Errorf("%w: /memory forget N (N from /memory list)", ErrUsage)
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			if env.Headless {
				return i18n.Errorf("%w: chatcli memory forget N: %q is not a number", ErrUsage, args[1])
			}
			return i18n.Errorf("%w: /memory forget N: %q is not a number", ErrUsage, args[1])
		}
		gone, err := st.Forget(n)
		if err != nil {
			return err
		}
		env.say("Forgot note %d: %s\n", n, gone.Text)
	case "show":
		notes, err := st.List()
		if err != nil {
			return err
		}
		text := memory.Text(notes, memory.Budget)
		if text == "" {
			text = env.Lang.Sprintf("Memory is empty: nothing is added to requests.\n")
		}
		env.Lang.Fprintf(env.Out, "What each request includes (%s):\n%s", st.Path(), text)
	default:
		if env.Headless {
			return i18n.Errorf("%w: unknown verb %q of chatcli memory; %s", ErrUsage, args[0], memoryHeadless)
		}
		return i18n.Errorf("%w: unknown /memory verb %q; %s", ErrUsage, args[0], memoryUsage)
	}
	return nil
}
