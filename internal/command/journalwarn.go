package command

import (
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
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
