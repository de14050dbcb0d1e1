package command

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
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
		WriteReportIn(env.Lang, env.Out, home, lines, env.width())
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
			WritePlanIn(env.Lang, env.Out, plan, "/storage prune --apply", env.width())
			return nil
		}
		res, err := retention.Apply(plan)
		out, flush := WrapTo(env.Out, env.width())
		WriteResultIn(env.Lang, out, res)
		flush()
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
	WriteReportIn(nil, w, home, lines, 0)
}

// WriteReportIn is WriteReport in lang (nil: English): its headings, the
// stores' names and their rules; the table fitted to width (a terminal's;
// 0 cuts nothing: writeRows).
func WriteReportIn(lang *i18n.Printer, w io.Writer, home string, lines []retention.StoreLine, width int) {
	lang.Fprintf(w, "Store %s\n", home)
	var rows [][]string
	for _, l := range lines {
		removable := "-"
		if l.RemoveFiles > 0 {
			removable = fmt.Sprintf("%d (%s)", l.RemoveFiles, lang.Decimal(retention.FormatBytes(l.RemoveBytes)))
		}
		store, rule := l.Store, l.Rule
		if lang.Tag() != i18n.English {
			store, rule = lang.Text(l.StoreText), lang.Text(l.RuleText)
		}
		rows = append(rows, []string{store, strconv.Itoa(l.Files), lang.Decimal(retention.FormatBytes(l.SizeBytes)), removable, rule})
	}
	writeRows(w, headings(lang.Sprintf("STORE\tFILES\tSIZE\tREMOVABLE NOW\tRULE\n")), rows, []colFit{name, keep, keep, keep, wrap}, width)
}

// reasonText says in lang what each rule removes and where it goes.
func reasonText(lang *i18n.Printer, r retention.Rules, reason retention.Reason) string {
	switch reason {
	case retention.ReasonTTL:
		return lang.Sprintf("machine-made sessions not updated for %s, to the trash", config.FormatTTL(r.SessionTTL))
	case retention.ReasonKeepCount:
		return lang.Sprintf("machine-made sessions beyond the %d newest of their prefix, to the trash", r.KeepPerPrefix)
	case retention.ReasonOrphanJournal:
		return lang.Sprintf("journals no session names, not written for %s, deleted", config.FormatTTL(r.SessionTTL))
	case retention.ReasonTemp:
		return lang.Sprintf("temp files left by interrupted writes, older than %s, deleted", config.FormatTTL(r.TempTTL))
	case retention.ReasonExpiredTrash:
		return lang.Sprintf("sessions trashed more than %s ago, deleted", config.FormatTTL(r.TrashTTL))
	case retention.ReasonWorkspaceGone:
		return lang.Sprintf("file checkpoint repositories of workspaces that no longer exist, deleted")
	}
	return string(reason)
}

// WritePlan prints what the rules would remove, grouped by reason, then
// what was spared and how to apply the plan (applyHint, the command).
func WritePlan(w io.Writer, p retention.PrunePlan, applyHint string) {
	WritePlanIn(nil, w, p, applyHint, 0)
}

// WritePlanIn is WritePlan in lang (nil: English), each reason's table
// fitted to width as WriteReportIn's. The reasons' names (the keys of
// --json output) stay as they are.
func WritePlanIn(lang *i18n.Printer, w io.Writer, p retention.PrunePlan, applyHint string, width int) {
	for _, g := range p.Groups() {
		fmt.Fprintf(w, "%s: %d, %s — %s\n", g.Reason, len(g.Items), lang.Decimal(retention.FormatBytes(g.SizeBytes)), reasonText(lang, p.Rules, g.Reason))
		var rows [][]string
		for _, it := range g.Items {
			rows = append(rows, []string{"  " + it.Name, it.When.Local().Format("2006-01-02 15:04"), lang.Decimal(retention.FormatBytes(it.SizeBytes))})
		}
		writeRows(w, nil, rows, []colFit{name, keep, keep}, width)
	}
	writeSpared(lang, w, p.Spared, lang.Sprintf("Kept"))
	if len(p.Items) == 0 {
		lang.Fprintf(w, "Nothing to remove.\n")
		return
	}
	io.WriteString(w, WrapText(lang.Sprintf("%d to remove, %s in all. %s carries this out; sessions go to the trash for %s.\n",
		len(p.Items), lang.Decimal(retention.FormatBytes(p.SizeBytes())), applyHint, config.FormatTTL(p.Rules.TrashTTL)), width))
}

// WriteResult prints what Apply did.
func WriteResult(w io.Writer, r retention.Result) { WriteResultIn(nil, w, r) }

// WriteResultIn is WriteResult in lang (nil: English).
func WriteResultIn(lang *i18n.Printer, w io.Writer, r retention.Result) {
	writeSpared(lang, w, r.Skipped, lang.Sprintf("Left alone"))
	s := retention.SummaryIn(lang, r)
	if s == "" {
		lang.Fprintf(w, "Nothing removed.\n")
		return
	}
	lang.Fprintf(w, "Done: %s.\n", s)
	if r.Count(retention.ReasonTTL)+r.Count(retention.ReasonKeepCount) > 0 {
		lang.Fprintf(w, "`chatcli session restore NAME` brings a trashed session back.\n")
	}
}

func writeSpared(lang *i18n.Printer, w io.Writer, spared []retention.Spared, title string) {
	if len(spared) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, s := range spared {
		why := s.Why
		if t := lang.TextWith(s.WhyText, func(e error) string { return kindsIn(lang, e, errorKinds) }); t != "" {
			why = t // Why in lang
		}
		fmt.Fprintf(w, "  %s: %s\n", s.Name, why)
	}
}
