package main

import (
	"fmt"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
)

// checkpointEntry is one element of `session rewind NAME --list --json`.
type checkpointEntry struct {
	Number   int       `json:"number"` // what --to takes; 1 is the newest
	At       time.Time `json:"at"`
	Messages int       `json:"messages"`
	Prompt   string    `json:"prompt"`
	// Code is the file checkpoint id taken with it; absent when none.
	Code string `json:"code,omitempty"`
}

func newSessionRewindCmd(f *factory) *cobra.Command {
	var list, asJSON, code, codeOnly, yes bool
	var to int
	cmd := &cobra.Command{
		Use:   "rewind NAME (--list | --to N [--code | --code-only])",
		Short: "List a session's checkpoints or restore one",
		Long: "A checkpoint is taken before each request to the model. --list shows them newest\n" +
			"first; --to N restores checkpoint N (as numbered by --list), drops the later\n" +
			"ones, and saves and journals the result, like /rewind in the REPL.\n" +
			"\n" +
			"Checkpoints of agent and coder turns also hold the files the tools changed\n" +
			"(marked +code). --code restores those files and then the conversation;\n" +
			"--code-only restores the files only. Run it in the folder the session worked in:\n" +
			"file checkpoints are kept per folder. The plan is printed first; files changed\n" +
			"by hand since a tool wrote them are left alone and listed unless --yes, and\n" +
			"commands run since are listed: their effects stay.",
		Args: exactArgs(1, i18n.Textf("one session NAME")),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list == (to != 0) {
				return i18n.Errorf("%w: give either --list or --to N", errFlags)
			}
			if code && codeOnly || list && (code || codeOnly || yes) {
				return i18n.Errorf("%w: --code, --code-only and --yes go with --to N, and --code excludes --code-only", errFlags)
			}
			c, err := f.config("", "")
			if err != nil {
				return err
			}
			e, err := f.storeEngine(c)
			if err != nil {
				return err
			}
			if _, err := e.Load(args[0]); err != nil {
				return err
			}
			if list {
				cps := e.Checkpoints()
				if !asJSON {
					command.WriteCheckpoints(f.lang(), f.streams.Out, cps)
					return nil
				}
				out := make([]checkpointEntry, 0, len(cps))
				for i, cp := range cps {
					out = append(out, checkpointEntry{Number: i + 1, At: cp.At, Messages: cp.Messages, Prompt: cp.Prompt, Code: cp.Code})
				}
				return writeJSON(f, out)
			}
			if n := len(e.Checkpoints()); to < 1 || to > n {
				return i18n.Errorf("%w: %d (session %q has %d); `chatcli session rewind %s --list` shows them",
					conversation.ErrNoCheckpoint, to, args[0], n, args[0])
			}
			if code || codeOnly {
				scope := command.ScopeBoth
				if codeOnly {
					scope = command.ScopeCode
				}
				env := &command.Env{Engine: e, Out: f.streams.Out, Err: f.streams.Err}
				return command.RewindTo(cmd.Context(), env, to, scope, yes)
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
	cmd.Flags().BoolVar(&code, "code", false, "with --to: restore the files the tools changed, then the conversation")
	cmd.Flags().BoolVar(&codeOnly, "code-only", false, "with --to: restore the files the tools changed only")
	cmd.Flags().BoolVar(&yes, "yes", false, "with --code or --code-only: overwrite files changed by hand since")
	cmd.Flags().BoolVar(&list, "list", false, "list the checkpoints, newest first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --list: print a JSON array of {number, at, messages, prompt}")
	cmd.Flags().IntVar(&to, "to", 0, "restore checkpoint `N`")
	return cmd
}
