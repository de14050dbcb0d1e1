package retention

import (
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestSummarySaysOneInTheSingular checks the retention pass's summary in
// both languages: a count of one in the singular, more in the plural.
func TestSummarySaysOneInTheSingular(t *testing.T) {
	r := Result{Removed: []Item{{Reason: ReasonOrphanJournal}, {Reason: ReasonTemp}, {Reason: ReasonTemp}}}
	if got, want := SummaryIn(nil, r), "deleted 1 orphan journal, deleted 2 leftover temp files (0 B)"; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	if got, want := SummaryIn(i18n.New(i18n.Portuguese), r), "1 journal órfão apagado, 2 arquivos temporários esquecidos apagados (0 B)"; got != want {
		t.Errorf("Portuguese: %q, want %q", got, want)
	}
}
