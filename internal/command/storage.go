package command

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/retention"
)

// storageUsage is how /storage is typed.
const storageUsage = "/storage [prune [--apply]]"

// runStorage is /storage (the report), /storage prune (the plan) and
// /storage prune --apply.
func runStorage(_ context.Context, env *Env, args []string) error {
	home, rules := storageRules(env)
	now := time.Now()
	switch {
	case len(args) == 0:
		lines, err := retention.Report(home, rules, now)
		if err != nil {
			return err
		}
		WriteReportIn(env.Lang, env.Out, home, lines)
		return nil
	case args[0] == "prune" && len(args) <= 2:
		apply := len(args) == 2 && args[1] == "--apply"
		if len(args) == 2 && !apply {
			break
		}
		plan, err := retention.Plan(home, rules, now)
		if err != nil {
			return err
		}
		if !apply {
			WritePlan(env.Out, plan, "/storage prune --apply")
			return nil
		}
		res, err := retention.Apply(plan)
		WriteResult(env.Out, res)
		return err
	}
	return fmt.Errorf("%w: %s", ErrUsage, storageUsage)
}

// storageRules are the store's home and rules: from the surface's
// configuration, else the defaults for the engine's store.
func storageRules(env *Env) (string, retention.Rules) {
	if env.Config != nil {
		return env.Config.Home, retention.FromConfig(*env.Config)
	}
	r := retention.DefaultRules()
	r.Key = env.Engine.Store().Key()
	return filepath.Dir(env.Engine.Store().Dir()), r
}

// WriteReport prints one line per store under home: files, size, what the
// rules would remove now and the rule.
func WriteReport(w io.Writer, home string, lines []retention.StoreLine) {
	WriteReportIn(nil, w, home, lines)
}

// WriteReportIn is WriteReport with its headings in lang (nil: English).
func WriteReportIn(lang *i18n.Printer, w io.Writer, home string, lines []retention.StoreLine) {
	lang.Fprintf(w, "Store %s\n", home)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	lang.Fprintf(tw, "STORE\tFILES\tSIZE\tREMOVABLE NOW\tRULE\n")
	for _, l := range lines {
		removable := "-"
		if l.RemoveFiles > 0 {
			removable = fmt.Sprintf("%d (%s)", l.RemoveFiles, retention.FormatBytes(l.RemoveBytes))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", l.Store, l.Files, retention.FormatBytes(l.SizeBytes), removable, l.Rule)
	}
	tw.Flush()
}

// reasonText says what each rule removes and where it goes.
func reasonText(r retention.Rules, reason retention.Reason) string {
	switch reason {
	case retention.ReasonTTL:
		return "machine-made sessions not updated for " + config.FormatTTL(r.SessionTTL) + ", to the trash"
	case retention.ReasonKeepCount:
		return fmt.Sprintf("machine-made sessions beyond the %d newest of their prefix, to the trash", r.KeepPerPrefix)
	case retention.ReasonOrphanJournal:
		return "journals no session names, not written for " + config.FormatTTL(r.SessionTTL) + ", deleted"
	case retention.ReasonTemp:
		return "temp files left by interrupted writes, older than " + config.FormatTTL(r.TempTTL) + ", deleted"
	case retention.ReasonExpiredTrash:
		return "sessions trashed more than " + config.FormatTTL(r.TrashTTL) + " ago, deleted"
	case retention.ReasonWorkspaceGone:
		return "file checkpoint repositories of workspaces that no longer exist, deleted"
	}
	return string(reason)
}

// WritePlan prints what the rules would remove, grouped by reason, then
// what was spared and how to apply the plan (applyHint, the command).
func WritePlan(w io.Writer, p retention.PrunePlan, applyHint string) {
	for _, g := range p.Groups() {
		fmt.Fprintf(w, "%s: %d, %s — %s\n", g.Reason, len(g.Items), retention.FormatBytes(g.SizeBytes), reasonText(p.Rules, g.Reason))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, it := range g.Items {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", it.Name, it.When.Local().Format("2006-01-02 15:04"), retention.FormatBytes(it.SizeBytes))
		}
		tw.Flush()
	}
	writeSpared(w, p.Spared, "Kept")
	if len(p.Items) == 0 {
		fmt.Fprintln(w, "Nothing to remove.")
		return
	}
	fmt.Fprintf(w, "%d to remove, %s in all. %s carries this out; sessions go to the trash for %s.\n",
		len(p.Items), retention.FormatBytes(p.SizeBytes()), applyHint, config.FormatTTL(p.Rules.TrashTTL))
}

// WriteResult prints what Apply did.
func WriteResult(w io.Writer, r retention.Result) {
	writeSpared(w, r.Skipped, "Left alone")
	s := retention.Summary(r)
	if s == "" {
		fmt.Fprintln(w, "Nothing removed.")
		return
	}
	fmt.Fprintf(w, "Done: %s.\n", s)
	if r.Count(retention.ReasonTTL)+r.Count(retention.ReasonKeepCount) > 0 {
		fmt.Fprintln(w, "`chatcli session restore NAME` brings a trashed session back.")
	}
}

func writeSpared(w io.Writer, spared []retention.Spared, title string) {
	if len(spared) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, s := range spared {
		fmt.Fprintf(w, "  %s: %s\n", s.Name, s.Why)
	}
}
