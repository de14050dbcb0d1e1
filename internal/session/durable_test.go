package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// syncs makes every folder fsync answer err (nil: succeed) and records
// the folders synced, relative to the store's home, until the test ends.
func syncs(t *testing.T, s *Store, err error) *[]string {
	t.Helper()
	var got []string
	home := filepath.Dir(s.Dir())
	orig := atomicfile.DirSync
	t.Cleanup(func() { atomicfile.DirSync = orig })
	atomicfile.DirSync = func(d *os.File) error {
		r, _ := filepath.Rel(home, d.Name())
		got = append(got, r)
		if err != nil {
			return err
		}
		return orig(d)
	}
	return &got
}

// When a folder's fsync fails after the change landed, every verb says
// the change is not known to be durable (atomicfile.ErrNotDurable) and
// behaves as written: the name, the entry, the file are there, and a
// moved session's lock file is gone as after any move.
func TestLandedButNotDurableCountsAsWritten(t *testing.T) {
	s := newStore(t)
	if err := s.Save("a", sample()); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(s.TrashDir(), 0o700) // a trash folder that cannot be made durable moves nothing in
	syncs(t, s, syscall.EIO)
	notDurable := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, atomicfile.ErrNotDurable) || !errors.Is(err, syscall.EIO) {
			t.Fatalf("%s: %v, want atomicfile.ErrNotDurable wrapping EIO", what, err)
		}
	}
	next := sample()
	next.Title = "second"
	notDurable("Save", s.Save("a", next))
	if got, err := s.Load("a"); err != nil || got.Title != "second" || got.Revision != next.Revision {
		t.Fatalf("Load after a save not known durable: %+v %v", got, err)
	}
	name, err := s.CreateUnique("auto", sample())
	notDurable("CreateUnique", err)
	if name != "auto" || !s.Exists("auto") {
		t.Fatalf("CreateUnique gave %q", name)
	}
	notDurable("Rename", s.Rename("a", "b"))
	if !s.Exists("b") || s.Exists("a") {
		t.Fatal("Rename did not move")
	}
	e, err := s.Trash("b")
	notDurable("Trash", err)
	if _, serr := os.Stat(e.Path); serr != nil || e.Name != "b" {
		t.Fatalf("Trash entry %+v: %v", e, serr)
	}
	notDurable("Restore", s.Restore("b"))
	if !s.Exists("b") {
		t.Fatal("Restore did not move")
	}
	notDurable("Delete", s.Delete("b"))
	if s.Exists("b") {
		t.Fatal("Delete did not remove")
	}
	for _, name := range []string{"a", "b"} {
		lock, _ := s.LockPath(name)
		legacy, _ := s.LegacyLockPath(name)
		if _, err := os.Stat(legacy); err == nil {
			t.Fatalf("%s left after the move", legacy)
		}
		if _, err := os.Stat(lock); err == nil {
			t.Fatalf("%s left after the move", lock)
		}
	}
	k := sealedStore(t, 2)
	os.WriteFile(filepath.Join(k.Dir(), "p.json"), mustEncode(t, sample()), 0o600)
	p, _ := k.Path("p")
	changed, err := k.RekeyFile("p", p, testKey(t, 2))
	notDurable("RekeyFile", err)
	if data, _ := os.ReadFile(p); !changed || !IsSealedFile(data) {
		t.Fatalf("RekeyFile: changed %v, sealed %v", changed, IsSealedFile(data))
	}
}

// The trash folder is created durably: the folder holding it is fsynced
// before the first session moves in.
func TestTheTrashFolderIsCreatedDurably(t *testing.T) {
	s := newStore(t)
	if err := s.Save("a", sample()); err != nil {
		t.Fatal(err)
	}
	got := syncs(t, s, nil)
	if _, err := s.Trash("a"); err != nil {
		t.Fatal(err)
	}
	if want := ". trash sessions"; strings.Join(*got, " ") != want {
		t.Fatalf("folders synced: %q, want %q", *got, want)
	}
}

func mustEncode(t *testing.T, s *Session) []byte {
	t.Helper()
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
