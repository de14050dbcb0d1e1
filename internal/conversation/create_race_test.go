package conversation

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// twoAttached returns windows A and B (two processes) that both attached
// session "s" while it did not exist, with empty histories.
func twoAttached(t *testing.T) (st *session.Store, journals string, a, b *window) {
	t.Helper()
	dir := t.TempDir()
	st, err := session.Open(filepath.Join(dir, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	journals = filepath.Join(dir, "transcripts")
	a, b = newWindow(t, st, journals), newWindow(t, st, journals)
	for _, w := range []*window{a, b} {
		if _, created, err := w.Attach("s"); err != nil || !created {
			t.Fatalf("attach: created %v, %v", created, err)
		}
	}
	return st, journals, a, b
}

// noFork fails when a window announced a conflict fork or one is stored.
func noFork(t *testing.T, st *session.Store, ws ...*window) {
	t.Helper()
	for _, w := range ws {
		for _, n := range w.notices {
			if strings.Contains(n, "cannot be merged") {
				t.Errorf("fork announced: %s", n)
			}
		}
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range list {
		if h.Name != "s" {
			t.Errorf("session %q stored besides s", h.Name)
		}
	}
}

// Two windows attach a session that does not exist yet; B creates it with
// a turn while A's first turn waits for its reply. A's turn joins the
// session B created, in its journal: both turns are appended, nothing is
// forked.
func TestTwoWindowsCreatingOneSessionAppendBothTurns(t *testing.T) {
	st, journals, a, b := twoAttached(t)
	a.hook.during = func() { turn(t, b.Engine, "b1") }
	turn(t, a.Engine, "a1")
	noFork(t, st, a, b)
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "b1,a1" {
		t.Fatalf("session holds %q; notices %v", got, a.notices)
	}
	if a.JournalID() != b.JournalID() || s.TranscriptID != a.JournalID() {
		t.Fatalf("journals: A %s, B %s, file %s", a.JournalID(), b.JournalID(), s.TranscriptID)
	}
	checkJournal(t, journals, s.TranscriptID, "b1", "a1")
	turn(t, b.Engine, "b2")
	turn(t, a.Engine, "a2")
	noFork(t, st, a, b)
	if s, err = st.Load("s"); err != nil || users(s.History) != "b1,a1,b2,a2" {
		t.Fatalf("session holds %q (%v); notices A %v B %v", users(s.History), err, a.notices, b.notices)
	}
}

// B creates the session before A's first turn starts: A's turn adopts it.
func TestAWindowWhoseNewSessionAppearedAdoptsIt(t *testing.T) {
	st, _, a, b := twoAttached(t)
	turn(t, b.Engine, "b1")
	turn(t, a.Engine, "a1")
	turn(t, b.Engine, "b2")
	noFork(t, st, a, b)
	s, err := st.Load("s")
	if err != nil || users(s.History) != "b1,a1,b2" {
		t.Fatalf("session holds %q (%v); notices A %v B %v", users(s.History), err, a.notices, b.notices)
	}
}

// Both windows' turns are in flight at once: each waits for its reply
// while the other creates the session.
func TestTwoWindowsCreatingOneSessionWithTurnsInFlight(t *testing.T) {
	st, _, a, b := twoAttached(t)
	a.hook.during = func() {
		b.hook.during = func() {}
		turn(t, b.Engine, "b1")
	}
	turn(t, a.Engine, "a1")
	turn(t, a.Engine, "a2")
	turn(t, b.Engine, "b2")
	noFork(t, st, a, b)
	s, err := st.Load("s")
	if err != nil || users(s.History) != "b1,a1,a2,b2" {
		t.Fatalf("session holds %q (%v); notices A %v B %v", users(s.History), err, a.notices, b.notices)
	}
}

// A session deleted elsewhere is created again by another window while
// the bound window's turn, which writes it again, waits for its reply:
// that turn follows the new session's, nothing is forked.
func TestATurnRewritingADeletedSessionJoinsItsNewCreation(t *testing.T) {
	st, _, a, b := twoWindows(t)
	if _, err := st.Trash("s"); err != nil {
		t.Fatal(err)
	}
	a.hook.during = func() {
		if _, err := b.New(); err != nil {
			t.Fatal(err)
		}
		if _, created, err := b.Attach("s"); err != nil || !created {
			t.Fatalf("attach: created %v, %v", created, err)
		}
		turn(t, b.Engine, "b1")
	}
	turn(t, a.Engine, "a1")
	noFork(t, st, a, b)
	s, err := st.Load("s")
	if err != nil || users(s.History) != "b1,zero,a1" {
		t.Fatalf("session holds %q (%v); notices A %v B %v", users(s.History), err, a.notices, b.notices)
	}
	if a.JournalID() != s.TranscriptID {
		t.Fatalf("A writes journal %s, the session names %s", a.JournalID(), s.TranscriptID)
	}
}
