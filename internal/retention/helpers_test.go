package retention

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

const day = 24 * time.Hour

// now is the fake clock's present in every test.
var now = time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)

// fixture is a store under a temporary home.
type fixture struct {
	t     *testing.T
	home  string
	store *session.Store
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, home: home, store: st}
}

// save writes session name created at created and last updated at updated
// (stored times, set through the store's clock), naming journal id.
func (f *fixture) save(name string, created, updated time.Time, journalID string) {
	f.t.Helper()
	s := &session.Session{TranscriptID: journalID, History: []message.Message{
		{Role: message.RoleUser, Content: "hello " + name}, {Role: message.RoleAssistant, Content: "hi"}}}
	f.store.SetClock(func() time.Time { return created })
	if err := f.store.Save(name, s); err != nil {
		f.t.Fatal(err)
	}
	if !updated.Equal(created) {
		f.store.SetClock(func() time.Time { return updated })
		if err := f.store.Save(name, s); err != nil {
			f.t.Fatal(err)
		}
	}
	// File mtimes are "now": recency must come from the stored times.
}

// saveAt saves a session created and updated at the same time.
func (f *fixture) saveAt(name string, updated time.Time) { f.save(name, updated, updated, "") }

// file writes a file under home with mtime mtime.
func (f *fixture) file(rel string, mtime time.Time) string {
	f.t.Helper()
	p := filepath.Join(f.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) plan(r Rules) PrunePlan {
	f.t.Helper()
	p, err := Plan(f.home, r, now)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// names returns the names of a plan's items with reason (all when "").
func names(items []Item, reason Reason) []string {
	var out []string
	for _, it := range items {
		if reason == "" || it.Reason == reason {
			out = append(out, it.Name)
		}
	}
	return out
}

func rulesWith(ttl time.Duration, keep int) Rules {
	r := DefaultRules()
	r.SessionTTL, r.KeepPerPrefix = ttl, keep
	return r
}
