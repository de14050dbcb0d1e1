package command

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/rewind"
)

// rewindUsage is how /rewind is typed.
const rewindUsage = "/rewind [N [conversation|code|both] [--yes] | list | compact]"

// runRewind is /rewind [N [SCOPE] [--yes] | list | compact]. Without an
// argument it shows the menu and, on a terminal, asks which checkpoint to
// restore and, when its files changed since, whether to restore the
// conversation, the code or both (see RewindTo).
func runRewind(ctx context.Context, env *Env, args []string) error {
	e := env.Engine
	args, yes := stripYes(args)
	if len(args) > 2 {
		return fmt.Errorf("%w: %s", ErrUsage, rewindUsage)
	}
	choice, scopeWord, asked := "", "", false
	if len(args) >= 1 {
		choice = args[0]
	}
	if len(args) == 2 {
		scopeWord = args[1]
	}
	scope, ok := parseScope(scopeWord)
	if !ok {
		return i18n.Errorf("%w: restore conversation, code or both: %s", ErrUsage, rewindUsage)
	}
	switch choice {
	case "compact":
		n, err := e.UndoCompact()
		if err != nil {
			return err
		}
		env.say("Restored the history from before the last compaction (%d messages).\n", n)
		return nil
	case "", "list":
		cps := e.Checkpoints()
		WriteCheckpoints(env.Lang, env.Out, cps)
		if choice == "list" || len(cps) == 0 {
			return nil
		}
		if env.Ask == nil {
			env.say("Restore one with /rewind N.\n")
			return nil
		}
		answer, err := env.Ask(env.Lang.Sprintf("Rewind to [1-%d], q to quit: ", len(cps)))
		if err != nil {
			return nil // Ctrl+C or EOF at the question: nothing done
		}
		if choice = strings.TrimSpace(answer); choice == "" || choice == "q" {
			env.say("Nothing changed.\n")
			return nil
		}
		asked = true
	}
	n, err := strconv.Atoi(choice)
	if err != nil {
		return i18n.Errorf("%w: /rewind takes a checkpoint number from /rewind list, \"compact\" or nothing", ErrUsage)
	}
	if asked {
		if scope, ok = offerScope(env, n); !ok {
			env.say("Nothing changed.\n")
			return nil
		}
	}
	return RewindTo(ctx, env, n, scope, yes)
}

// WriteCheckpoints prints checkpoints newest first, numbered from 1:
// "[1] 14:32:05  28 msgs  implement the refresh endpoint"; " +code" marks
// a checkpoint that holds a file checkpoint.
// Its note when there is none is in lang (nil: English).
func WriteCheckpoints(lang *i18n.Printer, w io.Writer, cps []rewind.Checkpoint) {
	if len(cps) == 0 {
		lang.Fprintf(w, "No checkpoints yet: one is taken before each request to the model.\n")
		return
	}
	for i, cp := range cps {
		code := ""
		if cp.Code != "" {
			code = " +code"
		}
		fmt.Fprintf(w, "[%d] %s  %d msgs%s  %s\n", i+1, cp.At.Local().Format("15:04:05"), cp.Messages, code, render.VisibleLine(cp.Prompt))
	}
}
