package retention

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// An older build keeps its session locks and open markers in sessions/
// (".<name>.lock", ".<name>.open"). Its open marker still spares the
// session, and the files it left are removed by the temp rule only while
// no process holds them.
func TestAnOlderBuildsMarkerSparesTheSession(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-old", now.Add(-200*day))
	r := rulesWith(90*day, 0)
	stale := f.plan(r)
	old := flock.New(legacyMarkerPath(f.home, "autosave-old")) // the older build's MarkOpen
	if err := old.RLock(); err != nil {
		t.Fatal(err)
	}
	if p := f.plan(r); len(names(p.Items, ReasonTTL)) != 0 || len(p.Spared) != 1 || !strings.Contains(p.Spared[0].Why, "open") {
		t.Fatalf("a session open in an older build planned: %+v", p)
	}
	res, err := Apply(stale)
	if err != nil || len(res.Removed) != 0 || !f.store.Exists("autosave-old") {
		t.Fatalf("apply removed a session open in an older build: %+v %v", res, err)
	}
	old.Unlock()
	res, err = Apply(f.plan(r))
	if err != nil || len(names(res.Removed, ReasonTTL)) != 1 || f.store.Exists("autosave-old") {
		t.Fatalf("after the older build let go: %+v %v", res, err)
	}
	if _, err := os.Stat(legacyMarkerPath(f.home, "autosave-old")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the older build's marker is left in sessions/: %v", err)
	}
}

func TestAnOlderBuildsLeftLocksAreSweptWhenFree(t *testing.T) {
	f := newFixture(t)
	f.saveAt("notes", now.Add(-time.Hour))
	for _, n := range []string{".notes.lock", ".notes.open", ".busy.lock", ".a.tmp-1.lock"} {
		f.file("sessions/"+n, now.Add(-100*day))
	}
	f.file("sessions/.fresh.lock", now.Add(-time.Minute)) // may be a write under way
	busy := flock.New(filepath.Join(f.store.Dir(), ".busy.lock"))
	if err := busy.Lock(); err != nil { // an older build writing "busy"
		t.Fatal(err)
	}
	defer busy.Unlock()
	p := f.plan(rulesWith(0, 0))
	var got []string
	for _, it := range p.Items {
		if it.Kind != KindLegacyLock || it.Reason != ReasonTemp {
			t.Fatalf("%s planned as %s (%s)", it.Name, it.Kind, it.Reason)
		}
		got = append(got, it.Name)
	}
	slices.Sort(got)
	if want := []string{".a.tmp-1.lock", ".busy.lock", ".notes.lock", ".notes.open"}; !slices.Equal(got, want) {
		t.Fatalf("planned %v, want %v", got, want)
	}
	res, err := Apply(p)
	if err != nil || len(res.Removed) != 3 || len(res.Skipped) != 1 || res.Skipped[0].Name != ".busy.lock" {
		t.Fatalf("%+v %v", res, err)
	}
	left, _ := os.ReadDir(f.store.Dir())
	var files []string
	for _, e := range left {
		files = append(files, e.Name())
	}
	if want := []string{".busy.lock", ".fresh.lock", "notes.json"}; !slices.Equal(files, want) {
		t.Fatalf("sessions/ holds %v, want %v", files, want)
	}
}
