package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/session"
)

// newSessionCmd is `chatcli session`: the headless mirror of /session.
func newSessionCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Manage saved sessions: list, show, fork, tree, search and more",
		Long:  "Manage the sessions under $CHATCLI_HOME/sessions without starting the REPL.\nThe same store and rules as the REPL's /session commands.",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newSessionListCmd(f, nil), newSessionShowCmd(f, nil), newSessionDeleteCmd(f, nil),
		newSessionForkCmd(f), newSessionTreeCmd(f), newSessionRenameCmd(f), newSessionExportCmd(f), newSessionSearchCmd(f), newSessionRewindCmd(f),
		newSessionRestoreCmd(f, nil))
	completeSessionVerbs(f, cmd)
	return cmd
}

// exactArgs is cobra.ExactArgs with an error saying what was expected.
func exactArgs(n int, what i18n.Text) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return i18n.Errorf("%w: %s needs %s (got %d); see %s --help", errFlags, cmd.CommandPath(), what, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// argsBetween is cobra.RangeArgs with an error saying what was expected
// (max -1: no upper limit), so a wrong count is bad usage (exit 2).
func argsBetween(lo, hi int, what i18n.Text) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || hi >= 0 && len(args) > hi {
			return i18n.Errorf("%w: %s takes %s (got %d); see %s --help", errFlags, cmd.CommandPath(), what, len(args), cmd.CommandPath())
		}
		return nil
	}
}

type sessionListOptions struct {
	f    *factory
	JSON bool
	// Limit is -n: at most this many rows, 0 for all; -1 (unset) is one
	// screen on a terminal and all otherwise. All lists every folder's
	// sessions (listing.go).
	Limit int
	All   bool
}

func newSessionListCmd(f *factory, runF func(*sessionListOptions) error) *cobra.Command {
	o := &sessionListOptions{f: f}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List saved sessions, newest first",
		Args:  exactArgs(0, i18n.Textf("no arguments")),
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return sessionListRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array of {name, title, messages, updated_at, created_at, revision, size_bytes, folder, error, look_alike}")
	cmd.Flags().IntVarP(&o.Limit, "limit", "n", -1, "at most `N` sessions, 0 for all (default: one screen on a terminal, all otherwise)")
	quietDefault(cmd.Flags().Lookup("limit")) // -1 means one screen, as the line says
	cmd.Flags().BoolVar(&o.All, "all", false, "on a terminal, list every folder's sessions with a FOLDER column (default: this folder's, when it has any)")
	return cmd
}

// listEntry is one element of `session list --json`.
type listEntry struct {
	Name      string    `json:"name"`
	Title     string    `json:"title"`
	Messages  int       `json:"messages"`
	UpdatedAt time.Time `json:"updated_at"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	Revision  int64     `json:"revision,omitempty"`
	SizeBytes int64     `json:"size_bytes"`
	Folder    string    `json:"folder,omitempty"`
	Error     string    `json:"error,omitempty"`
	// LookAlike is session.LookAlike of the name: "mixed-script",
	// "fullwidth" or absent.
	LookAlike string `json:"look_alike,omitempty"`
}

func sessionListRun(o *sessionListOptions) error {
	if o.Limit < -1 {
		return i18n.Errorf("%w: -n %d: want a number of sessions, 0 for all", errFlags, o.Limit)
	}
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	st.SetListProgress(listProgress(o.f.streams, o.f.lang()))
	list, err := st.List()
	if err != nil {
		return err
	}
	folders := recordedFolders(o.f.streams, o.f.lang(), c.Home)
	if !o.JSON {
		return o.writeTable(list, folders, st.Dir())
	}
	if o.Limit > 0 && len(list) > o.Limit {
		list = list[:o.Limit]
	}
	o.warnDamaged(list)
	out := make([]listEntry, 0, len(list))
	for _, h := range list {
		e := listEntry{Name: h.Name, Title: h.Title, Messages: max(h.Messages, 0), UpdatedAt: h.UpdatedAt,
			CreatedAt: h.CreatedAt, Revision: h.Revision, SizeBytes: h.SizeBytes, Folder: folders[h.Name], LookAlike: session.LookAlike(h.Name)}
		if h.Err != nil {
			e.Error = h.Err.Error()
		}
		out = append(out, e)
	}
	return writeJSON(o.f, out)
}

// warnDamaged warns on stderr of each listed session whose journal tail
// had damaged lines, one line per session (command.ListWarnings).
func (o *sessionListOptions) warnDamaged(list []session.Header) {
	for _, w := range command.ListWarnings(o.f.lang(), list) {
		o.f.warn(w)
	}
}

func writeJSON(f *factory, v any) error {
	enc := json.NewEncoder(f.streams.Out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

type sessionShowOptions struct {
	f    *factory
	Name string
	JSON bool
}

func newSessionShowCmd(f *factory, runF func(*sessionShowOptions) error) *cobra.Command {
	o := &sessionShowOptions{f: f}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a session's messages (--json: the v2 session document)",
		Args:  exactArgs(1, i18n.Textf("one session NAME")),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Name = args[0]
			if runF != nil {
				return runF(o)
			}
			return sessionShowRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the session file's v2 JSON document")
	return cmd
}

func sessionShowRun(o *sessionShowOptions) error {
	st, err := o.f.storeFromEnv()
	if err != nil {
		return err
	}
	s, err := st.Load(o.Name)
	if err != nil {
		return err
	}
	for _, w := range command.JournalWarnings(s.JournalWarnings) { // on stderr: --json's stdout stays the document
		o.f.warn(command.TextIn(o.f.lang(), w))
	}
	out := bufio.NewWriterSize(o.f.streams.Out, 64<<10)
	if o.JSON {
		if err := session.EncodeTo(out, s); err != nil {
			return err
		}
		return out.Flush()
	}
	command.WriteSessionIn(o.f.lang(), out, o.Name, s)
	return out.Flush()
}

type sessionDeleteOptions struct {
	f    *factory
	Name string
	Yes  bool
}

func newSessionDeleteCmd(f *factory, runF func(*sessionDeleteOptions) error) *cobra.Command {
	o := &sessionDeleteOptions{f: f}
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Move a session to the trash (--yes without a terminal)",
		Long: "Move session NAME to $CHATCLI_HOME/trash, where it is kept 7 days;\n" +
			"`chatcli session restore NAME` brings it back, and\n" +
			"`chatcli storage prune --empty-trash` deletes it for good.",
		Args: exactArgs(1, i18n.Textf("one session NAME")),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Name = args[0]
			if runF != nil {
				return runF(o)
			}
			return sessionDeleteRun(o)
		},
	}
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

func sessionDeleteRun(o *sessionDeleteOptions) error {
	st, err := o.f.storeFromEnv()
	if err != nil {
		return err
	}
	if _, err := st.Name(o.Name); err != nil {
		return err
	}
	if !st.Exists(o.Name) {
		return errNoSession(st, o.Name)
	}
	if !o.Yes {
		if !o.f.streams.InTTY {
			return i18n.Errorf("%w: refusing to delete %q without confirmation: stdin is not a terminal; add --yes", errFlags, o.Name)
		}
		if !o.f.streams.confirm(o.f.lang(), o.f.lang().Sprintf("Move session %q to the trash?", o.Name)) {
			o.f.lang().Fprintf(o.f.streams.Out, "Not deleted.\n")
			return nil
		}
	}
	if _, err := st.Trash(o.Name); err != nil {
		return err
	}
	o.f.lang().Fprintf(o.f.streams.Out, "Session %q moved to the trash; `chatcli session restore %s` brings it back.\n", o.Name, o.Name)
	return nil
}

func newSessionForkCmd(f *factory) *cobra.Command {
	var at, checkpoint int
	cmd := &cobra.Command{
		Use:   "fork SRC DST [--at N | --checkpoint K]",
		Short: "Copy session SRC into a new session DST (--at N, --checkpoint K)",
		Long: "Copy session SRC into a new session DST: all of it, with --at N its\n" +
			"messages 1..N only, with --checkpoint K SRC as it was at checkpoint K\n" +
			"(the fork keeps that checkpoint and the older ones). SRC is untouched.",
		Args: exactArgs(2, i18n.Textf("SRC and DST")),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("at") && at < 1 {
				return i18n.Errorf("%w: --at %d: want a message number, 1 or more (`chatcli session export %s md -` numbers them)", errFlags, at, args[0])
			}
			if cmd.Flags().Changed("checkpoint") && checkpoint < 1 {
				return i18n.Errorf("%w: --checkpoint %d: want a checkpoint number, 1 or more (`chatcli session rewind %s --list` numbers them)", errFlags, checkpoint, args[0])
			}
			if at > 0 && checkpoint > 0 {
				return i18n.Errorf("%w: give --at N or --checkpoint K, not both", errFlags)
			}
			c, err := f.config("", "")
			if err != nil {
				return err
			}
			// The engine's fork, as /session fork does it: the journal is
			// copied first, then the session is created in one exclusive
			// write, so a failure leaves no half-made session.
			e, err := f.storeEngine(c)
			if err != nil {
				return err
			}
			if _, err := e.Load(args[0]); err != nil {
				return err
			}
			if n := len(e.Checkpoints()); checkpoint > n {
				return i18n.Errorf("%w: %d (session %q has %d); `chatcli session rewind %s --list` shows them",
					conversation.ErrNoCheckpoint, checkpoint, args[0], n, args[0])
			}
			if t, terr := e.Transcript(); at > 0 && terr == nil && at > len(t.Messages) {
				return i18n.Errorf("%w: %d (the transcript of %q has %d messages; `chatcli session export %s md -` numbers them)",
					conversation.ErrNoMessage, at, args[0], len(t.Messages), args[0])
			}
			switch {
			case at > 0:
				_, err = e.ForkAt(args[1], at)
			case checkpoint > 0:
				_, err = e.ForkCheckpoint(args[1], checkpoint)
			default:
				err = e.Fork(args[1])
			}
			switch {
			case errors.Is(err, session.ErrExists):
				return i18n.Errorf("%w; pick another name for the fork (fork never replaces a session)", err)
			case err != nil:
				return err
			}
			f.lang().Fprintf(f.streams.Out, "Forked %q into %q (%d messages).\n", args[0], args[1], len(e.History()))
			return nil
		},
	}
	cmd.Flags().IntVar(&at, "at", 0, "the fork holds messages 1..`N` of SRC's transcript, as `chatcli session export SRC md -` numbers them")
	cmd.Flags().IntVar(&checkpoint, "checkpoint", 0, "the fork holds SRC as it was at checkpoint `K`, as `chatcli session rewind SRC --list` numbers them (1 is the newest)")
	return cmd
}

func newSessionRenameCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "rename OLD NEW",
		Short: "Rename a session (never replaces an existing one)",
		Args:  exactArgs(2, i18n.Textf("OLD and NEW")),
		RunE: func(_ *cobra.Command, args []string) error {
			c, st, err := f.configStore()
			if err != nil {
				return err
			}
			if err := conversation.ReservedName(args[1]); err != nil {
				return err
			}
			err = st.Rename(args[0], args[1])
			switch {
			case errors.Is(err, session.ErrNotFound):
				return errNoSession(st, args[0])
			case errors.Is(err, session.ErrExists):
				return i18n.Errorf("%w; pick another name (rename never replaces a session)", err)
			case err != nil:
				return err
			}
			f.renameUsed(c.Home, args[0], args[1])
			f.lang().Fprintf(f.streams.Out, "Renamed %q to %q.\n", args[0], args[1])
			return nil
		},
	}
}

// errNoSession is the ErrNotFound error for session name, naming the file
// it would be, as Store.Load's does.
func errNoSession(st *session.Store, name string) error {
	n, err := st.Name(name)
	if err != nil {
		return err
	}
	p, err := st.Path(n)
	if err != nil {
		return err
	}
	return i18n.Errorf("%w: %q (no file %s)", session.ErrNotFound, n, p)
}
