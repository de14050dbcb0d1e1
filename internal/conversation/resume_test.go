package conversation

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// machineSessions lists the sessions whose names start with prefix.
func machineSessions(t *testing.T, st *session.Store, prefix string) []session.Header {
	t.Helper()
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []session.Header
	for _, h := range list {
		if strings.HasPrefix(h.Name, prefix) {
			out = append(out, h)
		}
	}
	return out
}

func TestResumingAnAutosaveLeavesOneAutosaveWithEveryMessage(t *testing.T) {
	for _, journalOn := range []bool{false, true} {
		t.Run(map[bool]string{false: "journal off", true: "journal on"}[journalOn], func(t *testing.T) {
			f := newFixture(t)
			a := f.engine(nil)
			if journalOn {
				a.setJournalDir(t.TempDir())
			}
			turn(t, a, "first")
			first, err := a.Close(true)
			if err != nil || first == "" {
				t.Fatalf("autosave: %q %v", first, err)
			}
			b := f.engine(nil)
			b.now = func() time.Time { return time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC) }
			if journalOn {
				b.setJournalDir(a.JournalDir())
			}
			if _, err := b.Resume(first, false); err != nil {
				t.Fatal(err)
			}
			if b.Bound() != "" || b.Supersedes() != first || len(b.History()) != 2 {
				t.Fatalf("bound %q, supersedes %q, %d messages; want unbound continuing %q with 2", b.Bound(), b.Supersedes(), len(b.History()), first)
			}
			turn(t, b, "second")
			// Autosave off: a continued autosave is kept all the same.
			second, err := b.Close(false)
			if err != nil || second == "" || second == first {
				t.Fatalf("exit autosave %q (%v), want a new one", second, err)
			}
			autos := machineSessions(t, f.store, AutosavePrefix)
			if len(autos) != 1 || autos[0].Name != second || autos[0].Messages != 4 {
				t.Fatalf("autosaves after the exit: %+v; want only %q with 4 messages", autos, second)
			}
			s, err := f.store.Load(second)
			if err != nil {
				t.Fatal(err)
			}
			if s.History[0].Content != "first" || s.History[2].Content != "second" {
				t.Fatalf("the new autosave lacks the earlier turns: %+v", s.History)
			}
			if trashed, _ := f.store.TrashList(); len(trashed) != 1 || trashed[0].Name != first {
				t.Fatalf("the continued autosave is not in the trash: %+v", trashed)
			}
		})
	}
}

// resumedAutosave makes the autosave first of a one-turn conversation and
// resumes it in a new engine b.
func resumedAutosave(t *testing.T) (f *fixture, first string, b *Engine) {
	t.Helper()
	f = newFixture(t)
	a := f.engine(nil)
	turn(t, a, "first")
	first, _ = a.Close(true)
	b = f.engine(nil)
	if _, err := b.Resume(first, false); err != nil {
		t.Fatal(err)
	}
	return f, first, b
}

func TestResumingAnAutosaveWithoutATurnChangesNothing(t *testing.T) {
	f, first, b := resumedAutosave(t)
	if name, err := b.Close(true); err != nil || name != "" {
		t.Fatalf("nothing new, yet Close saved %q (%v)", name, err)
	}
	if autos := machineSessions(t, f.store, AutosavePrefix); len(autos) != 1 || autos[0].Name != first {
		t.Fatalf("autosaves: %+v", autos)
	}
}

func TestANewConversationAfterResumingSupersedesNothing(t *testing.T) {
	f, _, b := resumedAutosave(t)
	if _, err := b.New(); err != nil {
		t.Fatal(err)
	}
	turn(t, b, "unrelated")
	b.now = func() time.Time { return time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC) }
	if _, err := b.Close(true); err != nil {
		t.Fatal(err)
	}
	if autos := machineSessions(t, f.store, AutosavePrefix); len(autos) != 2 {
		t.Fatalf("the first autosave must stay beside the unrelated one: %+v", autos)
	}
}

func TestResumeBindsAPersonNamedSession(t *testing.T) {
	f := newFixture(t)
	a := f.engine(nil)
	if _, err := a.Resume("demo", false); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("resume of a missing session without create: %v", err)
	}
	if _, err := a.Resume("demo", true); err != nil || a.Bound() != "demo" {
		t.Fatalf("resume with create: bound %q, %v", a.Bound(), err)
	}
	turn(t, a, "hello")
	b := f.engine(nil)
	if _, err := b.Resume("demo", false); err != nil || b.Bound() != "demo" || b.Supersedes() != "" {
		t.Fatalf("bound %q supersedes %q: %v", b.Bound(), b.Supersedes(), err)
	}
	if got := b.History(); len(got) != 2 || got[0].Role != message.RoleUser {
		t.Fatalf("history %+v", got)
	}
	if _, err := b.Resume("bad/name", false); !errors.Is(err, session.ErrInvalidName) {
		t.Fatalf("bad name: %v", err)
	}
}
