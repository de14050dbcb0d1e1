package conversation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

func users(h []message.Message) string {
	var out []string
	for _, m := range h {
		if m.Role == message.RoleUser {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, ",")
}

func TestAttachingANewNameWritesTheConversationAtOnce(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "hello")
	if _, created, err := e.Attach("fresh"); err != nil || !created {
		t.Fatal(err)
	}
	s, err := f.store.Load("fresh")
	if err != nil || users(s.History) != "hello" {
		t.Fatalf("attach must write the live history: %v", err)
	}
	if name, _ := e.Close(true); name != "" {
		t.Fatal("nothing unsaved remains")
	}
}

func TestAdoptionKeepsUnsavedLocalTurns(t *testing.T) {
	f := newFixture(t)
	a, b := f.engine(nil), f.engine(nil)
	turn(t, a, "one")
	a.Save("s", false)
	b.Attach("s")
	orig := atomicfile.CreateTemp // a's next write-through fails: disk full
	atomicfile.CreateTemp = func(string, string) (atomicfile.TempFile, error) { return nil, syscall.ENOSPC }
	_, err := a.Turn(context.Background(), "only in a", nil)
	atomicfile.CreateTemp = orig
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("want ENOSPC, got %v", err)
	}
	turn(t, b, "from b")
	turn(t, a, "a again") // b's version changed too: merged, a's unsaved turn first kept
	s, err := f.store.Load("s")
	if err != nil || users(s.History) != "one,from b,only in a,a again" {
		t.Fatalf("a's unsaved turn or b's turn was lost: %q %v; notices: %v", users(s.History), err, f.notices)
	}
}

func TestSavingOverAnotherSessionNeedsReplace(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "precious")
	e.Save("keep", false)
	e2 := f.engine(nil)
	turn(t, e2, "scratch")
	if err := e2.Save("keep", false); !errors.Is(err, session.ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	if s, _ := f.store.Load("keep"); users(s.History) != "precious" {
		t.Fatal("the existing session was replaced")
	}
	if err := e2.Save("keep", true); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.store.Load("keep"); users(s.History) != "scratch" {
		t.Fatal("replace did not replace")
	}
}

func TestSaveAsStartsANewIdentityAndJournal(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	turn(t, e, "base")
	e.Save("a", false)
	a, _ := f.store.Load("a")
	e.Save("c", false)
	c, _ := f.store.Load("c")
	if c.TranscriptID == "" || c.TranscriptID == a.TranscriptID || c.Revision != 1 {
		t.Fatalf("save-as must start its own lineage: a=%s c=%s rev=%d", a.TranscriptID, c.TranscriptID, c.Revision)
	}
	turn(t, e, "only c")
	am, _, _, _ := journal.Messages(journal.Path(dir, a.TranscriptID), seal.Key{})
	cm, _, _, _ := journal.Messages(journal.Path(dir, c.TranscriptID), seal.Key{})
	if len(am) != 2 || len(cm) != 4 {
		t.Fatalf("journals a=%d c=%d messages", len(am), len(cm))
	}
}

func TestRepairOnLoadIsSavedAtOnce(t *testing.T) { // seq-1: saved and shown
	f := newFixture(t)
	f.store.Save("s", &session.Session{History: []message.Message{{Role: "user", Content: "x"},
		{Role: "assistant", ToolCalls: []message.ToolCall{{ID: "a", Name: "f", Arguments: "{}"}}}}})
	e := f.engine(nil)
	if _, err := e.Load("s"); err != nil {
		t.Fatal(err)
	}
	s, _ := f.store.Load("s")
	if len(s.History) != 3 || message.Validate(s.History) != nil {
		t.Fatalf("repair not saved: %d messages", len(s.History))
	}
}

func TestJournalFollowsTheSessionAcrossRestartsAndForks(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	turn(t, e, "one")
	e.Save("s", false)
	e.Close(true)

	e2 := f.engine(nil) // a restart
	e2.setJournalDir(dir)
	e2.Attach("s")
	turn(t, e2, "two")
	s, _ := f.store.Load("s")
	msgs, _, _, _ := journal.Messages(journal.Path(dir, s.TranscriptID), seal.Key{})
	if users(msgs) != "one,two" || len(msgs) != 4 {
		t.Fatalf("journal after restart: %q (%d)", users(msgs), len(msgs))
	}
	e2.Fork("f")
	turn(t, e2, "three")
	fs, _ := f.store.Load("f")
	fm, _, _, _ := journal.Messages(journal.Path(dir, fs.TranscriptID), seal.Key{})
	pm, _, _, _ := journal.Messages(journal.Path(dir, s.TranscriptID), seal.Key{})
	if fs.TranscriptID == s.TranscriptID || users(fm) != "one,two,three" || users(pm) != "one,two" {
		t.Fatalf("fork journal %q, parent %q", users(fm), users(pm))
	}
}

func TestLegacyFileIsImportedByAttach(t *testing.T) {
	f := newFixture(t)
	wd := t.TempDir()
	old, _ := os.Getwd()
	os.Chdir(wd)
	t.Cleanup(func() { os.Chdir(old) })
	os.WriteFile(filepath.Join(wd, ".chatcli_session_old.json"), []byte(`[{"role":"user","content":"legacy"},{"role":"assistant","content":"yes"}]`), 0o600)
	e := f.engine(nil)
	if _, created, err := e.Attach("old"); err != nil || created || users(e.History()) != "legacy" {
		t.Fatalf("attach: created=%v err=%v", created, err)
	}
}

func TestDetachAndAutosaveNeverShareAJournal(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	turn(t, e, "p1")
	e.Save("s1", false)
	e.Detach()
	turn(t, e, "p3")
	e.Save("s2", false)
	turn(t, e, "p4")
	s1, _ := f.store.Load("s1")
	s2, _ := f.store.Load("s2")
	if s1.TranscriptID == s2.TranscriptID {
		t.Fatal("s1 and s2 share a journal")
	}
	m1, _, _, _ := journal.Messages(journal.Path(dir, s1.TranscriptID), seal.Key{})
	if users(m1) != "p1" {
		t.Fatalf("s1's journal got %q", users(m1))
	}
}

func TestTranscriptAddsWhatTheJournalMissed(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	e := f.engine(nil)
	e.setJournalDir(dir)
	turn(t, e, "recorded")
	e.Save("s", false)
	e.setJournalDir("") // the journal is turned off for a while
	turn(t, e, "unrecorded")
	tr, err := ReadTranscript(dir, e.sess.TranscriptID, e.History(), seal.Key{})
	if err != nil || tr.Source != SourceBoth || users(tr.Messages) != "recorded,unrecorded" {
		t.Fatalf("%v %q %q", err, tr.Source, users(tr.Messages))
	}
	if tr, _ := ReadTranscript(dir, "../../etc/passwd", nil, seal.Key{}); tr.Source != SourceLive {
		t.Fatal("an id outside the journal folder must not be read")
	}
}

func TestSearchIndexFollowsNewTurns(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	turn(t, e, "alpha")
	e.Save("s", false)
	if hits, _, err := e.SearchTranscript("alpha", 5); err != nil || len(hits) == 0 {
		t.Fatalf("%v %v", hits, err)
	}
	if hits, _, _ := e.SearchSessions("zebra", 5); len(hits) != 0 {
		t.Fatal("nothing matches yet")
	}
	turn(t, e, "zebra crossing")
	for _, search := range []func(string, int) ([]search.Hit, []i18n.Text, error){e.SearchTranscript, e.SearchSessions} {
		if hits, _, _ := search("zebra", 5); len(hits) == 0 {
			t.Fatal("a cached index missed the new turn")
		}
	}
}

func TestOnBindHearsEveryBindingChange(t *testing.T) {
	f := newFixture(t)
	var heard []string
	e := New(Options{Store: f.store, Provider: f.engine(nil).Provider(), OnBind: func(n string) { heard = append(heard, n) }})
	turn(t, e, "x")
	e.Save("a", false)
	e.Fork("b")
	e.Load("a")
	e.Detach()
	e.Attach("a")
	e.Delete("a")
	if got := strings.Join(heard, ","); got != "a,b,a,,a," {
		t.Fatalf("heard %q", got)
	}
}

func TestMachineNamesAreNotForPeople(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "x")
	for _, try := range []func() error{
		func() error { return e.Save("autosave-important", false) },
		func() error { return e.Fork("mcp-notes") },
		func() error { _, _, err := e.Attach("autosave-new"); return err },
	} {
		if err := try(); !errors.Is(err, ErrReservedName) {
			t.Fatalf("want ErrReservedName, got %v", err)
		}
	}
	// An autosave chatcli made can still be attached and written through.
	name, _ := e.Close(true)
	e2 := f.engine(nil)
	if _, _, err := e2.Attach(name); err != nil {
		t.Fatal(err)
	}
	turn(t, e2, "more")
	if err := e2.Save(name, false); err != nil {
		t.Fatal(err)
	}
}

// A rename in another window: the bound window follows it, and never
// writes the old name again sharing one journal with the new one.
func TestBoundWindowFollowsARenameElsewhere(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	a, b := f.engine(nil), f.engine(nil)
	a.setJournalDir(dir)
	b.setJournalDir(dir)
	turn(t, a, "one")
	if err := a.Save("old", false); err != nil {
		t.Fatal(err)
	}
	if err := b.Rename("old", "new"); err != nil {
		t.Fatal(err)
	}
	turn(t, a, "two")
	if a.Bound() != "new" || f.store.Exists("old") {
		t.Fatalf("bound to %q; old exists: %v; notices %v", a.Bound(), f.store.Exists("old"), f.notices)
	}
	s, err := f.store.Load("new")
	if err != nil || users(s.History) != "one,two" {
		t.Fatalf("new holds %q (%v)", users(s.History), err)
	}
}
