package retention

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A machine-made session restored from the trash is not trashed again by
// the next pass (its age starts afresh); a named one comes back byte for
// byte.
func TestRestoredMachineSessionIsNotTrashedAgain(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-1", now.Add(-100*day))
	f.saveAt("mcp-2", now.Add(-100*day))
	f.saveAt("notes", now.Add(-400*day))
	res, err := Apply(f.plan(DefaultRules()))
	if err != nil || !slices.Equal(names(res.Removed, ReasonTTL), []string{"autosave-1", "mcp-2"}) {
		t.Fatalf("%+v %v", res, err)
	}
	named := filepath.Join(f.store.Dir(), "notes.json")
	before, _ := os.ReadFile(named)
	f.store.SetClock(func() time.Time { return now })
	if _, err := f.store.Trash("notes"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"autosave-1", "mcp-2", "notes"} {
		if err := Restore(f.store, name); err != nil {
			t.Fatalf("restore %s: %v", name, err)
		}
	}
	if p := f.plan(DefaultRules()); len(names(p.Items, ReasonTTL)) != 0 {
		t.Fatalf("restored sessions planned again: %+v", p.Items)
	}
	if h, err := f.store.Stat("autosave-1"); err != nil || !h.UpdatedAt.Equal(now) {
		t.Fatalf("restored autosave updated_at %v (%v), want %v", h.UpdatedAt, err, now)
	}
	if after, _ := os.ReadFile(named); !bytes.Equal(before, after) {
		t.Fatal("a named session was changed by its restore")
	}
	if err := Restore(f.store, "autosave-1"); err == nil {
		t.Fatal("restoring a session that is not in the trash succeeded")
	}
}
