package index_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/index"
)

// heldMerge makes the merges in the background wait until release is
// called; started hears each one start.
func heldMerge(t *testing.T) (started chan struct{}, release func()) {
	started, gate := make(chan struct{}, 16), make(chan struct{})
	restore := index.SetMergeStarts(func() {
		started <- struct{}{}
		<-gate
	})
	once := false
	release = func() {
		if !once {
			once = true
			close(gate)
		}
	}
	t.Cleanup(func() { release(); restore() })
	return started, release
}

// mergingStore returns a store whose log, of at most two entries, took
// two turns, and its index, whose fold of the log has started and is
// held until release is called.
func mergingStore(t *testing.T) (s *store, e *conversation.Engine, ix *index.Index, release func()) {
	t.Helper()
	restore := index.SetLogMaxEntries(2)
	t.Cleanup(restore)
	started, release := heldMerge(t)
	s = newStore(t, "")
	e = s.session("long", "first words about otters")
	ix = s.index()
	s.find(ix, "otters", index.Filter{})
	for i := range 2 {
		s.turn(e, fmt.Sprintf("otters and seals %d", i))
		s.find(ix, "otters", index.Filter{})
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("no merge started once the log held its entries")
	}
	return s, e, ix, release
}

// TestUpdatesGoOnWhileAMergeRuns: once the log is due to be folded, the
// fold runs in the background; the updates after it neither wait for it
// nor are lost: the entries they append meanwhile are carried into the
// new log, and the hits are those of a fresh build, in this process and
// in a new one.
func TestUpdatesGoOnWhileAMergeRuns(t *testing.T) {
	s, e, ix, release := mergingStore(t)
	for i := range 3 { // the merge is held: these updates must not wait for it
		s.turn(e, fmt.Sprintf("seals turn %d", i))
		done := make(chan struct{})
		go func() { s.find(ix, "seals", index.Filter{}); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("an update waited for the merge in the background")
		}
	}
	defer index.SetLogMaxEntries(100)() // no second fold, of the entries carried
	release()
	ix.WaitMerges()
	if n := len(readLog(t, s)); n <= 16 {
		t.Errorf("the new log is %d bytes: the entries appended during the merge were not carried", n)
	}
	got, warnings := s.find(ix, "otters seals", index.Filter{})
	other := s.index()
	reopened, _ := s.find(other, "otters seals", index.Filter{})
	other.WaitMerges()
	ix.WaitMerges()
	if err := removeIndex(s); err != nil {
		t.Fatal(err)
	}
	want, _ := s.find(s.index(), "otters seals", index.Filter{})
	if len(warnings) > 0 || len(want) != 12 {
		t.Fatalf("warnings %q, %d hits of a fresh build", warnings, len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the merge (-fresh build +merged):\n%s", diff)
	}
	if diff := cmp.Diff(want, reopened); diff != "" {
		t.Errorf("a new process (-fresh build +merged):\n%s", diff)
	}
}

// TestAMergeCutByACrashLeavesOneIndex: a process that exits while a
// merge runs in the background leaves either the manifest it found, with
// what the merge wrote as strays (its segment, its new log, its manifest
// not yet renamed), or, once the rename is done, the new manifest, with
// the old log as a stray. Either way the hits are right, nothing is
// reported, and the next update removes the strays.
func TestAMergeCutByACrashLeavesOneIndex(t *testing.T) {
	s, e, ix, release := mergingStore(t)
	before := indexFiles(t, s)
	want, _ := s.find(ix, "otters seals", index.Filter{})
	release()
	ix.WaitMerges()
	after := indexFiles(t, s)
	if before["MANIFEST"] == after["MANIFEST"] {
		t.Fatal("the merge wrote no manifest")
	}
	dir := index.Dir(s.st)
	for _, tc := range []struct {
		name        string
		base, extra map[string]string
	}{
		{"cut before the rename", before, withTemp(after)},
		{"cut after the rename", after, before},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer index.SetLogMaxEntries(100)() // no merge now: the next update removes the strays
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			var strays []string
			for n, data := range tc.extra {
				if _, inBase := tc.base[n]; !inBase && n != "MANIFEST" {
					os.WriteFile(filepath.Join(dir, n), []byte(data), 0o600)
					strays = append(strays, n)
				}
			}
			for n, data := range tc.base {
				os.WriteFile(filepath.Join(dir, n), []byte(data), 0o600)
			}
			if len(strays) == 0 {
				t.Fatal("no stray to leave")
			}
			ix := s.index()
			got, warnings := s.find(ix, "otters seals", index.Filter{})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if len(warnings) != 0 {
				t.Errorf("warnings %q, want none", warnings)
			}
			s.turn(e, "a turn that updates the index")
			s.find(ix, "turn", index.Filter{})
			for _, n := range strays {
				if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
					t.Errorf("%s, a stray, is still there", n)
				}
			}
			want, _ = s.find(ix, "otters seals", index.Filter{}) // with the turn
		})
	}
}

// withTemp returns files with their manifest also under the name of a
// temporary file, as a merge leaves it before the rename.
func withTemp(files map[string]string) map[string]string {
	out := map[string]string{".MANIFEST.tmp-1234": files["MANIFEST"]}
	for n, data := range files {
		if !strings.HasPrefix(n, ".") {
			out[n] = data
		}
	}
	return out
}
