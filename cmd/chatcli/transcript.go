package main

import (
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
)

func newSessionExportCmd(f *factory) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "export NAME md|jsonl [PATH] [--yes]",
		Short: "Write a session's whole transcript as Markdown or JSONL",
		Long: "Write every message the session's journal recorded, compacted or rewound ones\n" +
			"included (the saved history when it has no journal), as Markdown or JSONL.\n" +
			"Without PATH the file is chatcli-NAME-YYYYMMDD-HHMMSS.md|jsonl in the working\n" +
			"directory, mode 0600; PATH - writes to standard output, and so does no PATH when\n" +
			"CHATCLI_ENCRYPTION_KEY is set (an export is plaintext). A PATH starting with ~/\n" +
			"is in your home folder; a folder PATH (or one ending in /) gets the default name\n" +
			"inside it; a missing folder is created. An existing file is replaced only with\n" +
			"--yes.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 3 {
				return i18n.Errorf("%w: %s needs NAME and md or jsonl, and optionally PATH", errFlags, cmd.CommandPath())
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			c, st, err := f.configStore()
			if err != nil {
				return err
			}
			s, err := st.Load(args[0])
			if err != nil {
				return err
			}
			t, err := conversation.ReadTranscript(c.TranscriptsDir(), s.TranscriptID, s.History, st.Key())
			if err != nil {
				return err
			}
			for _, w := range t.Warnings {
				f.warn(command.TextIn(f.lang(), w))
			}
			msgs, source := t.Messages, t.Source
			path := ""
			if len(args) == 3 {
				path = args[2]
			}
			if path == "" && !st.Key().IsZero() {
				path = "-" // an encrypted store gets no plaintext copy unless a PATH asks for one
			}
			confirm := f.streams.Out
			if path == "-" { // the export is the output: say so on the side
				confirm = f.streams.Err
			}
			stdout, done := f.streams.Out, func() {}
			if args[1] == "md" {
				stdout, done = f.streams.terminalText() // JSONL stays exact
			}
			path, err = command.Export(args[1], path, args[0], msgs, time.Now(), stdout, yes)
			done()
			if err != nil {
				return err
			}
			f.lang().Fprintf(confirm, "Exported %d messages to %s (source: %s).\n", len(msgs), path, source)
			return nil
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "replace PATH when a file is there")
	return cmd
}
