package retention

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Background runs one pass (Plan, then Apply) in a goroutine, as a
// long-lived surface (REPL, MCP server, ACP server) starts. log receives
// one line, in lang (nil: English), only when the pass removed something
// or failed; it may be called from the pass's goroutine, so it must be
// safe for that. The returned channel is closed when the pass is over;
// cancelling ctx stops it between two items.
func Background(ctx context.Context, home string, rules Rules, lang *i18n.Printer, log func(string)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		plan, err := Plan(home, rules, time.Now())
		if err != nil {
			log(lang.Sprintf("storage: the retention pass did not run: %v", lang.Error(err, nil)))
			return
		}
		res, err := apply(ctx, plan)
		if s := SummaryIn(lang, res); s != "" {
			log(lang.Sprintf("storage: %s (chatcli storage shows the rules)", s))
		}
		if err != nil && ctx.Err() == nil {
			log(lang.Sprintf("storage: the retention pass failed in part: %v", lang.Error(err, nil)))
		}
	}()
	return done
}

// Summary is one line saying what a pass removed, "" when nothing.
func Summary(r Result) string { return SummaryIn(nil, r) }

// SummaryIn is Summary in lang (nil: English).
func SummaryIn(lang *i18n.Printer, r Result) string {
	var parts []string
	say := func(n int, text string) {
		if n > 0 {
			parts = append(parts, text)
		}
	}
	machine, orphans := r.Count(ReasonTTL)+r.Count(ReasonKeepCount), r.Count(ReasonOrphanJournal)
	temps, expired, repos := r.Count(ReasonTemp), r.Count(ReasonExpiredTrash), r.Count(ReasonWorkspaceGone)
	say(machine, lang.Sprintf("moved %d machine-made sessions to the trash", machine))
	say(orphans, lang.Sprintf("deleted %d orphan journals", orphans))
	say(temps, lang.Sprintf("deleted %d leftover temp files", temps))
	say(expired, lang.Sprintf("deleted %d expired trash entries", expired))
	say(repos, lang.Sprintf("deleted %d checkpoint repositories", repos))
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + " (" + lang.Decimal(FormatBytes(r.SizeBytes())) + ")"
}

// FormatBytes writes a size for people: 512 B, 1.5 KB, 12.0 MB (powers of
// 1024).
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
}
