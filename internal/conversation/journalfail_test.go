package conversation

import (
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/seal"
)

// A journal that cannot be written is announced once while it lasts, not
// at every turn; the first write that lands again writes every message
// and says so.
func TestJournalFailureIsSaidOnce(t *testing.T) {
	_, journals, st, _ := twoStores(t)
	if err := os.WriteFile(journals, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	var notices []string
	e := New(Options{Store: st, Provider: offline.New(""), JournalDir: journals, Notify: func(s string) { notices = append(notices, s) }})
	for _, p := range []string{"one", "two", "three"} {
		turn(t, e, p)
	}
	failed := 0
	for _, n := range notices {
		if strings.HasPrefix(n, "journal not written") {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d journal failure notices over 3 turns, want 1: %q", failed, notices)
	}
	if err := os.Remove(journals); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(journals, 0o700); err != nil {
		t.Fatal(err)
	}
	notices = nil
	turn(t, e, "four")
	if !strings.Contains(strings.Join(notices, "\n"), "journal written again") {
		t.Fatalf("no notice that the journal is written again: %q", notices)
	}
	recs, _, err := journal.ReadAll(journal.Path(journals, e.JournalID()), seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	msgs := 0
	for _, r := range recs {
		if r.Type == journal.TypeMessage {
			msgs++
		}
	}
	if msgs != len(e.History()) {
		t.Fatalf("journal holds %d messages, the conversation %d", msgs, len(e.History()))
	}
}
