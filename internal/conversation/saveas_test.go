package conversation

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// Save without replace never replaces a session another process created
// under that name after Save checked the name was free: the write is
// exclusive (session.Store.Create), the other file stays byte-identical and
// the engine keeps the state it had, so nothing is lost.
func TestSaveAsNeverReplacesASessionCreatedMeanwhile(t *testing.T) {
	for _, from := range []string{"", "mine"} { // unbound, and bound to another session
		f := newFixture(t)
		e := f.engine(nil)
		e.setJournalDir(t.TempDir())
		turn(t, e, "mine")
		if from != "" {
			if err := e.Save(from, false); err != nil {
				t.Fatal(err)
			}
		}
		id := e.JournalID()
		if id == "" {
			t.Fatal("no journal")
		}
		saveAsChecked = func() {
			if err := f.store.Save("taken", &session.Session{History: e.History()[:0]}); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := f.store.Path("taken")
		err := e.Save("taken", false)
		saveAsChecked = func() {}
		if !errors.Is(err, session.ErrExists) {
			t.Fatalf("from %q: save over a session created meanwhile: %v", from, err)
		}
		before, _ := os.ReadFile(p)
		other, lerr := f.store.Load("taken")
		if lerr != nil || len(other.History) != 0 {
			t.Fatalf("from %q: the other process's session was replaced: %v %+v", from, lerr, other)
		}
		if e.Bound() != from || e.JournalID() != id {
			t.Fatalf("from %q: a refused save changed the binding to %q, journal %q -> %q", from, e.Bound(), id, e.JournalID())
		}
		turn(t, e, "more") // the conversation goes on where it was
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Fatalf("from %q: a later turn wrote the other session", from)
		}
		if from != "" {
			if s, err := f.store.Load(from); err != nil || users(s.History) != "mine,more" {
				t.Fatalf("bound session after the refused save: %v", err)
			}
		}
	}
}
