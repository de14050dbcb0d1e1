package command

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/rewind"
)

// runRewind is /rewind [N | list | compact]. Without an argument it shows
// the menu and, on a terminal, asks which checkpoint to restore.
func runRewind(_ context.Context, env *Env, args []string) error {
	e := env.Engine
	if len(args) > 1 {
		return fmt.Errorf("%w: /rewind [N | list | compact]", ErrUsage)
	}
	choice := ""
	if len(args) == 1 {
		choice = args[0]
	}
	switch choice {
	case "compact":
		n, err := e.UndoCompact()
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Out, "Restored the history from before the last compaction (%d messages).\n", n)
		return nil
	case "", "list":
		cps := e.Checkpoints()
		WriteCheckpoints(env.Out, cps)
		if choice == "list" || len(cps) == 0 {
			return nil
		}
		if env.Ask == nil {
			fmt.Fprintln(env.Out, "Restore one with /rewind N.")
			return nil
		}
		answer, err := env.Ask(fmt.Sprintf("Rewind to [1-%d], q to quit: ", len(cps)))
		if err != nil {
			return nil // Ctrl+C or EOF at the question: nothing done
		}
		if choice = strings.TrimSpace(answer); choice == "" || choice == "q" {
			fmt.Fprintln(env.Out, "Nothing changed.")
			return nil
		}
	}
	n, err := strconv.Atoi(choice)
	if err != nil {
		return fmt.Errorf("%w: /rewind takes a checkpoint number from /rewind list, \"compact\" or nothing", ErrUsage)
	}
	cp, err := e.Rewind(n)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Rewound to %s, before %q: %d messages.\n", cp.At.Local().Format("15:04:05"), cp.Prompt, cp.Messages)
	return nil
}

// WriteCheckpoints prints checkpoints newest first, numbered from 1:
// "[1] 14:32:05  28 msgs  implement the refresh endpoint".
func WriteCheckpoints(w io.Writer, cps []rewind.Checkpoint) {
	if len(cps) == 0 {
		fmt.Fprintln(w, "No checkpoints yet: one is taken before each request to the model.")
		return
	}
	for i, cp := range cps {
		fmt.Fprintf(w, "[%d] %s  %d msgs  %s\n", i+1, cp.At.Local().Format("15:04:05"), cp.Messages, cp.Prompt)
	}
}
