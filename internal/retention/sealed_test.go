package retention

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// TestSealedSessionsKeepTheirJournals: the journals named by sealed
// sessions (live and trashed) are never orphans: with the key the rule
// reads their transcript_id; without it, it waits.
func TestSealedSessionsKeepTheirJournals(t *testing.T) {
	k, err := seal.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.store.SetKey(k)
	live, trashed, orphan := strings.Repeat("a", 32), strings.Repeat("b", 32), strings.Repeat("c", 32)
	f.save("notes", now.Add(-day), now.Add(-day), live)
	f.save("gone", now.Add(-day), now.Add(-day), trashed)
	if _, err := f.store.Trash("gone"); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-400 * day)
	for _, id := range []string{live, trashed, orphan} {
		f.file("transcripts/"+id+".jsonl", old)
	}
	r := rulesWith(90*day, 0)
	r.Key = k
	p := f.plan(r)
	if got := names(p.Items, ReasonOrphanJournal); !slices.Equal(got, []string{orphan}) {
		t.Fatalf("orphans with the key: %v", got)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{live, trashed} {
		if _, err := os.Stat(filepath.Join(f.home, "transcripts", id+".jsonl")); err != nil {
			t.Fatalf("journal of a sealed session removed: %v", err)
		}
	}
	// Without the key nothing can be known: no journal is an orphan.
	f.file("transcripts/"+orphan+".jsonl", old)
	if p := f.plan(rulesWith(90*day, 0)); len(names(p.Items, ReasonOrphanJournal)) != 0 {
		t.Fatalf("without the key: %+v", p.Items)
	}
}
