package retention

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Background runs one pass (Plan, then Apply) in a goroutine, as a
// long-lived surface (REPL, MCP server, ACP server) starts. log receives
// one line, only when the pass removed something or failed; it may be
// called from the pass's goroutine, so it must be safe for that. The
// returned channel is closed when the pass is over; cancelling ctx stops
// it between two items.
func Background(ctx context.Context, home string, rules Rules, log func(string)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		plan, err := Plan(home, rules, time.Now())
		if err != nil {
			log(fmt.Sprintf("storage: the retention pass did not run: %v", err))
			return
		}
		res, err := apply(ctx, plan)
		if s := Summary(res); s != "" {
			log("storage: " + s + " (chatcli storage shows the rules)")
		}
		if err != nil && ctx.Err() == nil {
			log(fmt.Sprintf("storage: the retention pass failed in part: %v", err))
		}
	}()
	return done
}

// Summary is one line saying what a pass removed, "" when nothing.
func Summary(r Result) string {
	var parts []string
	if n := r.Count(ReasonTTL) + r.Count(ReasonKeepCount); n > 0 {
		parts = append(parts, fmt.Sprintf("moved %s to the trash", plural(n, "machine-made session")))
	}
	for _, c := range []struct {
		reason Reason
		what   string
	}{{ReasonOrphanJournal, "orphan journal"}, {ReasonTemp, "leftover temp file"}, {ReasonExpiredTrash, "expired trash entry"},
		{ReasonWorkspaceGone, "checkpoint repository"}} {
		if n := r.Count(c.reason); n > 0 {
			parts = append(parts, "deleted "+plural(n, c.what))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + " (" + FormatBytes(r.SizeBytes()) + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(what, "y"))
	}
	return fmt.Sprintf("%d %ss", n, what)
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
