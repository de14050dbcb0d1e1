package session

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/storefile"
)

// sessionsFolder lists the sessions folder of s.
func sessionsFolder(t *testing.T, s *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// ChatCLI lists every file of the sessions folder: after saves, renames,
// trash, restore and deletes it holds the session files and nothing else.
func TestNothingButSessionFilesInTheSessionsFolder(t *testing.T) {
	s := newStore(t)
	if err := s.Save("a", &Session{History: turn("x")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveIf("b", &Session{History: turn("y")}, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename("b", "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trash("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Restore("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Create("d", &Session{History: turn("z")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("d"); err != nil {
		t.Fatal(err)
	}
	if got := sessionsFolder(t, s); len(got) != 2 || got[0] != "a.json" || got[1] != "c.json" {
		t.Fatalf("sessions/ holds %v", got)
	}
}

// An older build locks only sessions/.<name>.lock: while it holds that
// file a write of this build waits for it, and fails after the timeout
// with the old file byte-identical.
func TestAWriteWaitsForAnOlderBuildsLock(t *testing.T) {
	s := newStore(t)
	if err := s.Save("s", &Session{History: turn("kept")}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("s")
	before, _ := os.ReadFile(p)
	legacy, _ := s.LegacyLockPath("s")
	old := flock.New(legacy)
	if err := old.Lock(); err != nil {
		t.Fatal(err)
	}
	s.SetLockTimeout(50 * time.Millisecond)
	if err := s.Save("s", &Session{History: turn("lost?")}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a save while an older build writes: %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Fatal("the file changed under an older build's lock")
	}
	old.Unlock()
	if err := s.Save("s", &Session{History: turn("now")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the older build's lock file is left in sessions/: %v", err)
	}
}

// olderBuildLock is the lock of the build before the locks folder
// (sessions/.<name>.lock, retaken when the locked file is no longer the
// one at the path).
func olderBuildLock(t *testing.T, path string) *flock.Flock {
	for {
		l := flock.New(path)
		if err := l.Lock(); err != nil {
			t.Error(err)
			return nil
		}
		if sameFile(l) {
			return l
		}
		l.Unlock()
	}
}

// An older build waiting on the legacy file while this build writes gets
// it only after the write, and then holds the session: this build's next
// write waits for it.
func TestTheLegacyLockIsHandedOverSafely(t *testing.T) {
	s := newStore(t)
	held, err := s.lock("s")
	if err != nil {
		t.Fatal(err)
	}
	legacy, _ := s.LegacyLockPath("s")
	got := make(chan *flock.Flock, 1)
	go func() { got <- olderBuildLock(t, legacy) }()
	select {
	case <-got:
		t.Fatal("the older build locked the session while this build held it")
	case <-time.After(30 * time.Millisecond):
	}
	held.Unlock()
	old := <-got
	if old == nil {
		return
	}
	defer old.Unlock()
	s.SetLockTimeout(50 * time.Millisecond)
	if err := s.Save("s", &Session{History: turn("x")}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a save while the older build holds the session: %v", err)
	}
}

// A link planted at the locks folder is refused: no lock file is made
// through it, and the write fails naming it.
func TestALinkAtTheLocksFolderIsRefused(t *testing.T) {
	s := newStore(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, LocksDir(s.Dir())); err != nil {
		t.Fatal(err)
	}
	err := s.Save("s", &Session{History: turn("x")})
	if !errors.Is(err, storefile.ErrNotRegular) || !strings.Contains(err.Error(), LocksDir(s.Dir())) {
		t.Fatalf("save through a linked locks folder: %v", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("files made through the link: %v", ents)
	}
}
