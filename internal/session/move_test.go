package session

import (
	"errors"
	"os"
	"strconv"
	"testing"
	"time"
)

// writeLoop saves revisions 1, 2, … of session "a" with SaveIf until one
// is refused because the session is gone. It reports the last number it
// saved successfully; started is closed after the first success.
func writeLoop(t *testing.T, s *Store, rev int64, started chan<- struct{}) int {
	last := 0
	for i := 1; ; i++ {
		sess := &Session{History: turn(strconv.Itoa(i))}
		err := s.SaveIf("a", sess, rev)
		var ce *ConflictError
		switch {
		case err == nil:
			rev, last = sess.Revision, i
			if i == 1 {
				close(started)
			}
		case errors.As(err, &ce) && ce.Missing:
			return last
		default:
			t.Errorf("write %d: %v", i, err)
			return last
		}
	}
}

// Rename and Trash move a session under its lock: a write racing the move
// either lands before it (and moves with the file) or after it (and, as a
// SaveIf, is refused with a Missing conflict). No write that returned
// success is lost. A hook widens the moment between publishing the new
// name and removing the old one, where an unlocked move lost writes.
func TestMovesNeverLoseAConcurrentWrite(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sealed bool
		move   func(s *Store) (string, error) // the moved file
	}{
		{"rename", false, func(s *Store) (string, error) { err := s.Rename("a", "b"); p, _ := s.Path("b"); return p, err }},
		{"rename sealed", true, func(s *Store) (string, error) { err := s.Rename("a", "b"); p, _ := s.Path("b"); return p, err }},
		{"trash", false, func(s *Store) (string, error) { e, err := s.Trash("a"); return e.Path, err }},
		{"trash sealed", true, func(s *Store) (string, error) { e, err := s.Trash("a"); return e.Path, err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			if tc.sealed {
				s = sealedStore(t, 1)
			}
			first := &Session{History: turn("0")}
			if err := s.SaveIf("a", first, 0); err != nil {
				t.Fatal(err)
			}
			afterLink = func() { time.Sleep(30 * time.Millisecond) }
			defer func() { afterLink = func() {} }()
			started, done := make(chan struct{}), make(chan int)
			go func() { done <- writeLoop(t, s, first.Revision, started) }()
			<-started
			moved, err := tc.move(s)
			if err != nil {
				t.Fatal(err)
			}
			last := <-done
			data, err := os.ReadFile(moved)
			if err != nil {
				t.Fatal(err)
			}
			name := "b"
			if tc.name == "trash" || tc.name == "trash sealed" {
				name = "a" // a trashed file keeps the name it was sealed for
			}
			doc := data
			if tc.sealed {
				if _, doc, err = openContainer(s.Key(), name, data); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Decode(doc)
			if err != nil {
				t.Fatal(err)
			}
			if want := strconv.Itoa(last); got.History[0].Content != want {
				t.Fatalf("the moved session holds write %s; write %s returned success before the move and is lost",
					got.History[0].Content, want)
			}
			if s.Exists("a") {
				t.Fatal("a refused SaveIf recreated the old name")
			}
			// A last-writer-wins Save after the move recreates the old name.
			if err := s.Save("a", &Session{History: turn("after")}); err != nil || !s.Exists("a") {
				t.Fatalf("Save after the move: %v, exists %v", err, s.Exists("a"))
			}
		})
	}
}
