package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/retention"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

const storageLong = `Show what chatcli keeps under $CHATCLI_HOME: one line per store (sessions you
named, machine-made sessions per prefix, transcripts, input history, trash,
temp files, anything else) with its file count, size, the rule that governs it
and what that rule would remove now.

The rules:
  - machine-made sessions (autosave-*, mcp-*) not updated for
    CHATCLI_SESSION_TTL (default 90d; "30" means days, "12h" hours, "0" turns
    expiry off) go to the trash, and so do those beyond the
    CHATCLI_SESSION_AUTOSAVE_KEEP newest per prefix (default 600; 0 for no
    limit);
  - sessions you named are never removed automatically, nor is a session open
    in a running chatcli;
  - journals no session names follow the same TTL (by last write);
  - temp files left by interrupted writes are deleted after an hour;
  - the trash keeps sessions 7 days: chatcli session restore NAME.
The REPL applies the rules once at start-up; chatcli storage prune does it on
demand.

On a terminal the table is fitted to its width (COLUMNS, when set, takes
its place): the rules wrap under their column. Piped or redirected, every
store is one whole line, as scripts read it.`

// How long the REPL waits for the start-up retention pass: before the
// banner, and at exit.
const (
	retentionStartWait = 300 * time.Millisecond
	retentionExitWait  = 5 * time.Second
)

// waitAtMost waits for done or d, whichever comes first.
func waitAtMost(done <-chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

type storageOptions struct {
	f    *factory
	JSON bool
}

// newStorageCmd is `chatcli storage` and its `prune` subcommand.
func newStorageCmd(f *factory, runF func(*storageOptions) error) *cobra.Command {
	o := &storageOptions{f: f}
	cmd := &cobra.Command{
		Use:   "storage",
		Short: "Show disk use per store and the retention rules (see prune)",
		Long:  storageLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return storageRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array of {store, path, files, size_bytes, rule, remove_files, remove_bytes}")
	cmd.AddCommand(newStoragePruneCmd(f, nil), newStorageRekeyCmd(f, nil), newStorageVerifyCmd(f, nil), newStorageDecryptCmd(f, nil))
	return cmd
}

// storageSetup reads the configuration and returns the home and rules.
func storageSetup(f *factory) (config.Config, retention.Rules, error) {
	c, err := f.settings()
	if err != nil {
		return c, retention.Rules{}, err
	}
	return c, retention.FromConfig(c), nil
}

func storageRun(o *storageOptions) error {
	c, rules, err := storageSetup(o.f)
	if err != nil {
		return err
	}
	lines, err := retention.Report(c.Home, rules, time.Now())
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.f, lines)
	}
	command.WriteReportIn(o.f.lang(), o.f.streams.Out, c.Home, lines, o.f.tableWidth())
	return nil
}

type storagePruneOptions struct {
	f          *factory
	Apply      bool
	EmptyTrash bool
	JSON       bool
	Quiet      bool
}

const storagePruneLong = `List what the retention rules would remove now, grouped by reason: TTL,
keep-count, orphan journal, leftover temp file, expired trash, workspace gone
(the file checkpoints of a workspace folder that no longer exists). Without
--apply nothing changes, whatever else is given.

--apply removes it: sessions are moved to the trash (chatcli session restore
NAME brings one back within 7 days); journals, temp files, expired trash
entries and checkpoint repositories are deleted. It never prompts and exits 0
when there is nothing to do, so it can run from cron:

  17 3 * * *  chatcli storage prune --apply --quiet

--empty-trash --apply also deletes every trashed session now, whatever its
age, together with the journals no other session names: those conversations
are gone for good, from search and export too. --empty-trash alone lists
them.`

func newStoragePruneCmd(f *factory, runF func(*storagePruneOptions) error) *cobra.Command {
	o := &storagePruneOptions{f: f}
	cmd := &cobra.Command{
		Use:   "prune [--apply] [--empty-trash]",
		Short: "List what the retention rules would remove; --apply removes it",
		Long:  storagePruneLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return storagePruneRun(o)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.Apply, "apply", false, "remove what the rules allow (sessions go to the trash); no prompt")
	fl.BoolVar(&o.EmptyTrash, "empty-trash", false, "with --apply, also delete every session in the trash now (alone: list them)")
	fl.BoolVar(&o.JSON, "json", false, "print the plan (or, with --apply, what was removed) as JSON")
	fl.BoolVarP(&o.Quiet, "quiet", "q", false, "print nothing unless something was removed or failed (for cron)")
	return cmd
}

// pruneOutput is `storage prune --json` with --apply.
type pruneOutput struct {
	retention.Result
	TrashEmptied []string `json:"trash_emptied,omitempty"`
	// JournalsDeleted are the journal ids deleted with the emptied trash.
	JournalsDeleted []string `json:"journals_deleted,omitempty"`
}

// journalSizes returns the size in bytes of each journal of ids that exists
// in dir (ids with no journal file are left out).
func journalSizes(dir string, ids []string) map[string]int64 {
	out := map[string]int64{}
	for _, id := range ids {
		if !journal.ValidID(id) {
			continue
		}
		if fi, err := storefile.Lstat(journal.Path(dir, id)); err == nil { // a link or special file is not measured through
			out[id] = fi.Size()
		}
	}
	return out
}

func storagePruneRun(o *storagePruneOptions) error {
	c, rules, err := storageSetup(o.f)
	if err != nil {
		return err
	}
	out := o.f.streams.Out
	plan, err := retention.Plan(c.Home, rules, time.Now())
	if err != nil {
		return err
	}
	if !o.Apply {
		return prunePreview(o, c, plan)
	}
	var res pruneOutput
	var applyErr error
	res.Result, applyErr = retention.Apply(plan)
	if !o.JSON && (!o.Quiet || len(res.Removed) > 0 || applyErr != nil) {
		wrapped, flush := command.WrapTo(out, o.f.tableWidth())
		command.WriteResultIn(o.f.lang(), wrapped, res.Result)
		flush()
	}
	if o.EmptyTrash {
		applyErr = joinErr(applyErr, emptyTrash(o, c, &res))
	}
	if o.JSON {
		if err := writeJSON(o.f, res); err != nil {
			return err
		}
	}
	return applyErr
}

func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return fmt.Errorf("%w; %w", a, b)
}

type sessionRestoreOptions struct {
	f    *factory
	Name string
}

func newSessionRestoreCmd(f *factory, runF func(*sessionRestoreOptions) error) *cobra.Command {
	o := &sessionRestoreOptions{f: f}
	cmd := &cobra.Command{
		Use:   "restore NAME",
		Short: "Bring session NAME back from the trash (its newest trashed copy)",
		Long: "Sessions deleted with `chatcli session delete` or /session delete, and\n" +
			"machine-made sessions removed by the retention rules, stay in\n" +
			"$CHATCLI_HOME/trash for 7 days. restore moves the newest trashed copy of NAME\n" +
			"back, byte for byte; it never replaces an existing session (rename or delete\n" +
			"that one first).",
		Args: exactArgs(1, i18n.Textf("one session NAME")),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Name = args[0]
			if runF != nil {
				return runF(o)
			}
			return sessionRestoreRun(o)
		},
	}
	return cmd
}

func sessionRestoreRun(o *sessionRestoreOptions) error {
	st, err := o.f.storeFromEnv()
	if err != nil {
		return err
	}
	if err := retention.Restore(st, o.Name); err != nil {
		return err
	}
	n, _ := session.NormalizeName(o.Name)
	o.f.lang().Fprintf(o.f.streams.Out, "Restored session %q from the trash.\n", n)
	return nil
}
