package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
)

// fixedClock sets the store's clock to t and returns a setter.
func fixedClock(s *Store, t time.Time) func(time.Time) {
	s.SetClock(func() time.Time { return t })
	return func(nt time.Time) { t = nt }
}

func TestTrashAndRestoreAreByteIdentical(t *testing.T) {
	s := newStore(t)
	if err := s.Save("notes.v2", sample()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("notes.v2")
	before, _ := os.ReadFile(p)
	set := fixedClock(s, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	e, err := s.Trash("notes.v2")
	if err != nil {
		t.Fatal(err)
	}
	if s.Exists("notes.v2") || e.Name != "notes.v2" || e.File != "notes.v2.20261201-100000.json" || e.TranscriptID != "tr-1" {
		t.Fatalf("after trash: exists=%v entry=%+v", s.Exists("notes.v2"), e)
	}
	if st, _ := os.Stat(s.TrashDir()); st.Mode().Perm() != 0o700 {
		t.Fatalf("trash mode %v", st.Mode())
	}
	if got, _ := os.ReadFile(e.Path); !bytes.Equal(got, before) {
		t.Fatal("trashed copy differs")
	}
	// A second session of the same name trashed in the same second gets its
	// own file; Restore brings back the newest.
	other := sample()
	other.Title = "second"
	s.Save("notes.v2", other)
	second, _ := os.ReadFile(p)
	set(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	e2, err := s.Trash("notes.v2")
	if err != nil || e2.File != "notes.v2.20261201-100000-2.json" || e2.Seq != 2 {
		t.Fatalf("second trash: %+v %v", e2, err)
	}
	list, _ := s.TrashList()
	if len(list) != 2 || list[0].File != e2.File {
		t.Fatalf("list: %+v", list)
	}
	if err := s.Restore("notes.v2"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, second) {
		t.Fatal("restore did not bring back the newest copy byte for byte")
	}
	if err := s.Restore("notes.v2"); !errors.Is(err, ErrExists) {
		t.Fatalf("restore over an existing session: %v", err)
	}
	s.Delete("notes.v2")
	if err := s.Restore("notes.v2"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, before) {
		t.Fatal("second restore must bring back the first copy")
	}
	if err := s.Restore("notes.v2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty trash: %v", err)
	}
}

func TestTrashMissingAndUnreadable(t *testing.T) {
	s := newStore(t)
	if _, err := s.Trash("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if _, err := s.Trash("../x"); !errors.Is(err, ErrInvalidName) {
		t.Fatalf("bad name: %v", err)
	}
	os.WriteFile(filepath.Join(s.Dir(), "cut.json"), []byte(`{"version":2,"chat_his`), 0o600)
	e, err := s.Trash("cut")
	if err != nil || e.Err == nil || e.SizeBytes == 0 {
		t.Fatalf("an unreadable session is trashed too, flagged: %+v %v", e, err)
	}
	// Files that do not follow the layout are ignored.
	os.WriteFile(filepath.Join(s.TrashDir(), "README"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(s.TrashDir(), ".x.json.tmp-1"), []byte("x"), 0o600)
	if list, _ := s.TrashList(); len(list) != 1 || list[0].Name != "cut" {
		t.Fatalf("%+v", list)
	}
}

func TestEmptyTrashByAge(t *testing.T) {
	s := newStore(t)
	day := 24 * time.Hour
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	set := fixedClock(s, t0)
	for i, name := range []string{"old", "mid", "new"} {
		set(t0.Add(time.Duration(i) * 4 * day))
		s.Save(name, sample())
		s.Trash(name)
	}
	set(t0.Add(10 * day)) // old: 10 days, mid: 6, new: 2
	removed, err := s.EmptyTrash(7 * day)
	if err != nil || len(removed) != 1 || removed[0].Name != "old" {
		t.Fatalf("%+v %v", removed, err)
	}
	removed, err = s.EmptyTrash(0)
	if list, _ := s.TrashList(); err != nil || len(removed) != 2 || len(list) != 0 {
		t.Fatalf("empty all: %+v %v %+v", removed, err, list)
	}
}

// TestLoadFileReadsTrashedSessions: a trashed session loads through its
// path with the name it was sealed for, sealed or not; a damaged copy fails
// as Load does, naming the file, and is left unchanged.
func TestLoadFileReadsTrashedSessions(t *testing.T) {
	for _, key := range []byte{0, 1} {
		s := newStore(t)
		if key != 0 {
			s.SetKey(testKey(t, key))
		}
		if err := s.Save("notes", markedSession()); err != nil {
			t.Fatal(err)
		}
		e, err := s.Trash("notes")
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.LoadFile(e.Name, e.Path)
		if err != nil || len(got.History) != 2 || got.TranscriptID != "0a1b" {
			t.Fatalf("key %d: %+v %v", key, got, err)
		}
		if key != 0 {
			if _, err := s.LoadFile("other", e.Path); !errors.Is(err, seal.ErrWrongKey) {
				t.Fatalf("sealed for another name: %v", err)
			}
		}
		cut := readBytes(t, e.Path)
		cut = cut[:len(cut)-5]
		os.WriteFile(e.Path, cut, 0o600)
		if _, err := s.LoadFile(e.Name, e.Path); err == nil || (key == 0 && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), e.Path))) {
			t.Fatalf("key %d: a cut copy: %v", key, err)
		}
		if !bytes.Equal(readBytes(t, e.Path), cut) {
			t.Fatal("changed by a failed load")
		}
		missing := filepath.Join(s.TrashDir(), "gone.20261201-100000.json")
		if _, err := s.LoadFile("gone", missing); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), missing) {
			t.Fatalf("missing: %v", err)
		}
	}
}

// Restore takes the session's lock: a save of the name that is under way
// (it holds the lock, its new file not yet renamed into place) is not
// raced. Unlocked, Restore linked the trashed copy in and removed it from
// the trash, and the save's rename then replaced it: the trashed session
// was in neither place. The seam runs Restore at that very moment of the
// save.
func TestRestoreWaitsForASaveUnderWay(t *testing.T) {
	s := newStore(t)
	trashed := sample()
	trashed.Title = "the trashed one"
	if err := s.Save("a", trashed); err != nil {
		t.Fatal(err)
	}
	e, err := s.Trash("a")
	if err != nil {
		t.Fatal(err)
	}
	s.SetLockTimeout(20 * time.Millisecond)
	var restoreErr error
	orig := atomicfile.CreateTemp
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		atomicfile.CreateTemp = orig
		restoreErr = s.Restore("a") // the save holds the lock and has checked that "a" is free
		return orig(dir, pattern)
	}
	if err := s.Save("a", &Session{History: turn("new")}); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(restoreErr, ErrLocked) {
		t.Fatalf("Restore during a save of the name: %v, want ErrLocked", restoreErr)
	}
	if _, err := os.Stat(e.Path); err != nil {
		t.Fatalf("the trashed copy is gone and the save replaced the restored file: %v", err)
	}
	if err := s.Restore("a"); !errors.Is(err, ErrExists) {
		t.Fatalf("Restore over the saved session: %v", err)
	}
}
