package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
)

// checkpointEntry is one element of `session rewind NAME --list --json`.
type checkpointEntry struct {
	Number   int       `json:"number"` // what --to takes; 1 is the newest
	At       time.Time `json:"at"`
	Messages int       `json:"messages"`
	Prompt   string    `json:"prompt"`
}

func newSessionRewindCmd(f *factory) *cobra.Command {
	var list, asJSON bool
	var to int
	cmd := &cobra.Command{
		Use:   "rewind NAME (--list [--json] | --to N)",
		Short: "List a session's checkpoints or restore one",
		Long: "A checkpoint is taken before each request to the model. --list shows them newest first;\n" +
			"--to N restores checkpoint N (as numbered by --list), drops the later ones, and saves and\n" +
			"journals the result, like /rewind in the REPL.",
		Args: exactArgs(1, "one session NAME"),
		RunE: func(_ *cobra.Command, args []string) error {
			if list == (to != 0) {
				return fmt.Errorf("%w: give either --list or --to N", errFlags)
			}
			c, err := f.config("", "")
			if err != nil {
				return err
			}
			e, err := f.engine(c)
			if err != nil {
				return err
			}
			if _, err := e.Load(args[0]); err != nil {
				return err
			}
			if list {
				cps := e.Checkpoints()
				if !asJSON {
					command.WriteCheckpoints(f.streams.Out, cps)
					return nil
				}
				out := make([]checkpointEntry, 0, len(cps))
				for i, cp := range cps {
					out = append(out, checkpointEntry{Number: i + 1, At: cp.At, Messages: cp.Messages, Prompt: cp.Prompt})
				}
				return writeJSON(f, out)
			}
			cp, err := e.Rewind(to)
			if err != nil {
				return err
			}
			fmt.Fprintf(f.streams.Out, "Rewound session %q to %s, before %q: %d messages.\n", args[0],
				cp.At.Local().Format("2006-01-02 15:04:05"), cp.Prompt, cp.Messages)
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the checkpoints, newest first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --list: print a JSON array of {number, at, messages, prompt}")
	cmd.Flags().IntVar(&to, "to", 0, "restore checkpoint `N`")
	return cmd
}
