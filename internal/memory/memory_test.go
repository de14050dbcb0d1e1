package memory

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/seal"
)

func testKey(t *testing.T, b byte) seal.Key {
	t.Helper()
	k, err := seal.ParseKey(strings.Repeat(string(rune('A'+b)), 43) + "=")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSaveListForget(t *testing.T) {
	s := Open(t.TempDir(), seal.Key{})
	for _, n := range []string{"uses tabs", "deploys on friday", "likes Go"} {
		if _, err := s.Save(n); err != nil {
			t.Fatal(err)
		}
	}
	gone, err := s.Forget(2)
	if err != nil || gone.Text != "deploys on friday" {
		t.Fatalf("%v %+v", err, gone)
	}
	notes, err := s.List()
	if err != nil || len(notes) != 2 || notes[0].Text != "uses tabs" || notes[1].Text != "likes Go" {
		t.Fatalf("%v %+v", err, notes)
	}
	if _, err := s.Forget(3); !errors.Is(err, ErrNoNote) || !strings.Contains(err.Error(), "there are 2 notes") {
		t.Fatalf("forget 3 of 2: %v", err)
	}
	s.Forget(1)
	if _, err := s.Forget(2); err == nil || !strings.Contains(err.Error(), "there is 1 note;") {
		t.Fatalf("forget 2 of 1: %v", err)
	}
	fi, err := os.Stat(s.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
}

func TestTextIsNewestFirstAndSaysTheCut(t *testing.T) {
	var notes []Note
	for i := range 50 {
		notes = append(notes, Note{Text: strings.Repeat("x", 90) + string(rune('a'+i%26))})
	}
	notes[49].Text = "NEWEST"
	text := Text(notes, 1000)
	if !strings.HasPrefix(strings.SplitN(text, "\n", 3)[1], "- [0001-01-01] NEWEST") {
		t.Fatalf("newest not first:\n%s", text)
	}
	if !strings.Contains(text, "older notes left out") || len(text) > 1200 {
		t.Fatalf("cut not said or budget not kept (%d bytes):\n%s", len(text), text)
	}
	if Text(nil, 1000) != "" {
		t.Fatal("no notes gives text")
	}
}

// A damaged file, or a sealed one read without its key, is an error naming
// the file and is never written over.
func TestUnreadableFileIsNamedAndKept(t *testing.T) {
	home := t.TempDir()
	s := Open(home, seal.Key{})
	if _, err := s.Save("first"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.Path(), []byte(`{"version":1,"notes":[{"te`), 0o600)
	before, _ := os.ReadFile(s.Path())
	if _, err := s.Save("second"); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("save over a damaged file: %v", err)
	}
	after, _ := os.ReadFile(s.Path())
	if !bytes.Equal(before, after) {
		t.Fatal("the damaged file was changed")
	}

	k := testKey(t, 1)
	sealed := Open(t.TempDir(), k)
	if _, err := sealed.Save("secret-marker-7731"); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(sealed.Path())
	if bytes.Contains(raw, []byte("secret-marker-7731")) || !seal.IsSealed(raw) {
		t.Fatal("plaintext in a sealed notes file")
	}
	noKey := &Store{dir: sealed.dir}
	if _, err := noKey.List(); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), sealed.Path()) {
		t.Fatalf("without the key: %v", err)
	}
	wrong := &Store{dir: sealed.dir, key: testKey(t, 2)}
	if _, err := wrong.Save("x"); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("wrong key: %v", err)
	}
	if after, _ := os.ReadFile(sealed.Path()); !bytes.Equal(raw, after) {
		t.Fatal("a save with the wrong key changed the file")
	}
}

// Two writers saving at once both keep their notes (the lock).
func TestConcurrentSavesKeepEveryNote(t *testing.T) {
	home := t.TempDir()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Open(home, seal.Key{}).Save(strings.Repeat("n", i+1)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	notes, err := Open(home, seal.Key{}).List()
	if err != nil || len(notes) != 20 {
		t.Fatalf("%v: %d notes", err, len(notes))
	}
}

// A named pipe where the notes file belongs is refused at once, never
// read from (which would wait for a writer).
func TestNotesFileThatIsAPipeIsRefused(t *testing.T) {
	home := t.TempDir()
	s := Open(home, seal.Key{})
	if err := os.MkdirAll(home+"/memory", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(s.Path(), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.List(); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrUnreadable) {
			t.Errorf("List: %v, want ErrUnreadable", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("List blocked on a named pipe")
	}
}
