package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/render"
)

// runCompact is /compact [instruction]: one compaction of the live history,
// with its progress printed as it goes. Cancelling (Ctrl+C) leaves the
// history untouched.
func runCompact(ctx context.Context, env *Env, args []string) error {
	instruction := strings.Join(args, " ")
	if instruction == "help" || instruction == "--help" {
		return i18n.Errorf("%w: /compact summarises older messages and keeps the last 10; /compact INSTRUCTION keeps the last 4 and follows the instruction; /rewind compact undoes it", ErrUsage)
	}
	compacting := env.Lang.Sprintf("compacting")
	defer env.progress(compacting)()
	if env.Progress != nil { // a retry's notice stopped the spinner
		defer env.Engine.SetOnRetried(env.Engine.SetOnRetried(func() { env.progress(compacting) }))
	}
	res, err := env.Engine.Compact(ctx, instruction, func(ev compact.Event) {
		fmt.Fprintln(env.Out, render.Visible(ev.Text))
		env.progress(compacting)
	})
	switch {
	case errors.Is(err, compact.ErrNothingToGain):
		return nil // the pipeline said why, history unchanged
	case err != nil && ctx.Err() != nil:
		return i18n.Errorf("compaction cancelled; the history is unchanged")
	case err != nil:
		return err
	}
	if res.Level > 1 && env.Engine.JournalID() != "" {
		env.say("/rewind compact undoes it.\n")
	}
	return nil
}
