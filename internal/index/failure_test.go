package index_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/index"
)

// TestFailedUpdateKeepsTheIndex: when the disk is full, an update fails
// with the error, every index file is left byte for byte as it was, and
// the next update, with room again, indexes what the failed one missed.
func TestFailedUpdateKeepsTheIndex(t *testing.T) {
	s := newStore(t, "")
	e := s.session("chat", "first words about lemurs")
	ix := s.index()
	s.find(ix, "lemurs", index.Filter{})
	before := files(t, index.Dir(s.st))
	s.turn(e, "second words about tapirs")

	orig := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		if strings.HasPrefix(dir, index.Dir(s.st)) {
			return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.ENOSPC}
		}
		return orig(dir, pattern)
	}
	restore := index.SetWriteLogAt(func(f *os.File, b []byte, off int64) (int, error) {
		n, _ := f.WriteAt(b[:len(b)/2], off) // half the entry lands, then the disk is full
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	})
	_, _, err := ix.Find("tapirs", index.Filter{}, 0)
	atomicfile.CreateTemp = orig
	restore()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Find on a full disk: %v, want ENOSPC", err)
	}
	after := files(t, index.Dir(s.st))
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s changed by the failed update", name)
		}
	}
	for _, ix := range []*index.Index{ix, s.index()} {
		hits, _ := s.find(ix, "tapirs", index.Filter{Roles: []string{"user"}})
		if !slices.Equal(where(hits), []string{"chat#3"}) {
			t.Fatalf("after the failure: %v, want chat#3", where(hits))
		}
	}
}

// TestBuildReportsProgress: a build tells Options.Progress how far it
// read, ending with everything read.
func TestBuildReportsProgress(t *testing.T) {
	s := newStore(t, "")
	big := strings.Repeat("many words for a long prompt ", 1<<15) // about 1 MB a prompt
	s.session("big", big, big, big, big, big)
	var heard [][2]int64
	ix := index.Open(index.Options{Store: s.st, JournalDir: s.journals, Progress: func(done, total int64) {
		heard = append(heard, [2]int64{done, total})
	}})
	defer ix.Close()
	if _, err := ix.Sync(); err != nil {
		t.Fatal(err)
	}
	if len(heard) < 2 {
		t.Fatalf("progress heard %v, want several reports", heard)
	}
	last := heard[len(heard)-1]
	if last[0] != last[1] || last[1] < 1<<20 {
		t.Errorf("last report %v, want all of at least 1 MB read", last)
	}
	for i := 1; i < len(heard); i++ {
		if heard[i][0] < heard[i-1][0] {
			t.Errorf("progress went back: %v", heard)
		}
	}
}

// files returns the regular files in dir by name.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			out[e.Name()] = data
		}
	}
	return out
}

// TestInterruptedBuildIndexesEverySnapshot: when a build stops after one
// worker wrote its segment and manifest but before another wrote its
// segment, the sessions the second one read are indexed by the next
// update.
func TestInterruptedBuildIndexesEverySnapshot(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	orig := atomicfile.CreateTemp
	defer func() { atomicfile.CreateTemp = orig }()
	for try := 0; try < 50; try++ {
		s := newStore(t, "")
		s.journals = "" // sessions are indexed from their snapshots
		s.session("one", "words about lemurs")
		s.session("two", "words about tapirs")
		dir := index.Dir(s.st)
		atomicfile.CreateTemp = func(d, pattern string) (atomicfile.TempFile, error) {
			if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); err == nil && d == dir && strings.HasPrefix(pattern, ".seg-") {
				return nil, &os.PathError{Op: "open", Path: filepath.Join(d, pattern), Err: syscall.ENOSPC}
			}
			return orig(d, pattern)
		}
		_, _, err := s.index().Find("lemurs", index.Filter{}, 0)
		atomicfile.CreateTemp = orig
		if err == nil {
			continue // one worker read both sessions: nothing was interrupted
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("Find on a full disk: %v, want ENOSPC", err)
		}
		ix := s.index()
		for _, word := range []string{"lemurs", "tapirs"} {
			if hits, _ := s.find(ix, word, index.Filter{}); len(hits) == 0 {
				t.Errorf("%s: no hit after the interrupted build", word)
			}
		}
		return
	}
	t.Skip("no build ran with two workers")
}

// TestARebuiltIndexIsReadAfresh: an Index that read the index before the
// folder was deleted and rebuilt by another process reads the new
// segments, though they reuse the names of the ones it had open.
func TestARebuiltIndexIsReadAfresh(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := newStore(t, "")
	s.session("one", "words about lemurs")
	ix := s.index()
	if hits, _ := s.find(ix, "lemurs", index.Filter{}); len(hits) == 0 {
		t.Fatal("lemurs: no hit")
	}
	if err := removeIndex(s); err != nil {
		t.Fatal(err)
	}
	s.session("two", "words about tapirs")
	s.find(s.index(), "tapirs", index.Filter{}) // another process rebuilds it
	hits, _ := s.find(ix, "tapirs", index.Filter{})
	if got := where(hits); len(got) == 0 || !strings.HasPrefix(got[0], "two#") {
		t.Errorf("tapirs after the rebuild: %v, want a hit in two", got)
	}
}

// TestTemporaryFilesOfAnInterruptedWriteAreRemoved: the temporary files a
// write stopped between its write and its rename left are removed by the
// next update, as the segments no manifest names are.
func TestTemporaryFilesOfAnInterruptedWriteAreRemoved(t *testing.T) {
	s := newStore(t, "")
	s.session("one", "words about lemurs")
	ix := s.index()
	s.find(ix, "lemurs", index.Filter{})
	dir := index.Dir(s.st)
	left := []string{".seg-0000000000000007.ccx.tmp-123", ".MANIFEST.tmp-456", ".log-0000000000000008.ccl.tmp-789"}
	for _, n := range left {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.session("two", "words about tapirs")
	s.find(ix, "tapirs", index.Filter{})
	for _, n := range left {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s is still there", n)
		}
	}
}
