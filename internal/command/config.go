package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/config"
)

// runConfig is /config [session]: every setting, or the session settings
// with the bound session and the active journal.
func runConfig(_ context.Context, env *Env, args []string) error {
	if len(args) > 1 || len(args) == 1 && args[0] != "session" {
		return i18n.Errorf("%w: /config or /config session", ErrUsage)
	}
	if env.Config == nil {
		return i18n.Errorf("%w: no configuration available here", ErrUsage)
	}
	if len(args) == 0 {
		WriteSettings(env.Out, *env.Config, "")
		return nil
	}
	WriteSessionConfig(env.Out, *env.Config, env.Engine.Bound(), env.Engine.JournalID())
	return nil
}

// WriteSettings prints every setting (config.Config.AllSettings) with its
// value and source, after the config file's path when it is known.
func WriteSettings(w io.Writer, c config.Config, file string) {
	if file != "" {
		state := ""
		if _, err := os.Stat(file); err != nil {
			state = " (none)"
		}
		fmt.Fprintf(w, "config file: %s%s\n", file, state)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tSOURCE")
	for _, s := range c.AllSettings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Value, s.Source)
	}
	tw.Flush()
}

// WriteSessionConfig prints every session setting with its value and
// source, then the bound session and the active journal id.
func WriteSessionConfig(w io.Writer, c config.Config, bound, journalID string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tSOURCE")
	for _, s := range c.SessionSettings() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Value, s.Source)
	}
	tw.Flush()
	if bound == "" {
		bound = "(none)"
	}
	if journalID == "" {
		journalID = "(none yet)"
		if !c.Transcript {
			journalID = "(journal off)"
		}
	}
	fmt.Fprintf(w, "bound session: %s\nactive journal: %s\n", bound, journalID)
}
