package command

import (
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/session"
)

// JournalWarnings are the damaged journal lines a load skipped
// (session.Session.JournalWarnings) as the warnings to show, each naming
// the journal and the line (journal.Warning.Said): what session export
// and /session load say of the same lines.
func JournalWarnings(ws []journal.Warning) []i18n.Text {
	out := make([]i18n.Text, len(ws))
	for i, w := range ws {
		out[i] = w.Said()
	}
	return out
}

// ListWarnings are the warnings of a listing in lang: one line per session
// of list whose journal tail had damaged lines (session.Header's
// JournalWarnings), naming the session and its first damaged line, and
// how many more there are. A listing shows every session again at each
// call, so a session's damage is one line however many lines it has;
// chatcli storage verify lists them all.
func ListWarnings(lang *i18n.Printer, list []session.Header) []string {
	var out []string
	for _, h := range list {
		ws := h.JournalWarnings
		if len(ws) == 0 {
			continue
		}
		name, first := render.VisibleLine(h.Name), TextIn(lang, ws[0].Said())
		if more := len(ws) - 1; more > 0 {
			out = append(out, lang.Sprintf("session %s: %s, and %d more damaged lines (`chatcli storage verify` lists them)", name, first, more))
		} else {
			out = append(out, lang.Sprintf("session %s: %s", name, first))
		}
	}
	return out
}
