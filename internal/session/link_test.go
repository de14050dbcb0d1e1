package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// journalledStore is a store with its journal folder and a session "n"
// with a journal, saved saves times.
func journalledStore(t *testing.T, saves int) (*Store, string) {
	t.Helper()
	s := newStore(t)
	dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
	s.SetJournalDir(dir)
	h := []message.Message{{Role: message.RoleUser, Content: "first"}, {Role: message.RoleAssistant, Content: "a"}}
	j, _, err := journal.Open(dir, journal.NewID(), s.Key())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Sync(h, journal.ReasonSync); err != nil {
		t.Fatal(err)
	}
	sess := &Session{TranscriptID: j.ID(), History: h}
	for range saves {
		if err := s.Save("n", sess); err != nil {
			t.Fatal(err)
		}
	}
	return s, dir
}

// ChatCLI's rewrite drops revision; the next save continues above every
// revision chatcli wrote, through Save and SaveIf, however many saves came
// before and however many rewrites.
func TestRevisionContinuesAfterChatCLIRewrite(t *testing.T) {
	for _, saves := range []int{1, 3, linkRevisionStep, linkRevisionStep + 5} {
		s, _ := journalledStore(t, saves)
		p, _ := s.Path("n")
		last := int64(saves)
		for round, conditional := range []bool{false, true, false} {
			chatcliSaves(t, p)
			if h, err := s.StatFile("n"); err != nil || h.Revision != 0 {
				t.Fatalf("the rewrite kept a revision: %+v %v", h, err)
			}
			got, err := s.Load("n")
			if err != nil || !got.Relinked {
				t.Fatalf("not relinked: %+v %v", got, err)
			}
			saveOrSaveIf(t, s, got, conditional)
			h, _ := s.StatFile("n")
			if h.Revision <= last || got.Revision != h.Revision {
				t.Fatalf("%d saves, round %d: revision %d (session %d) after %d", saves, round, h.Revision, got.Revision, last)
			}
			last = h.Revision
		}
	}
}

// saveOrSaveIf saves sess as session "n", through SaveIf of a file ChatCLI
// rewrote (revision 0) when conditional is set, else through Save.
func saveOrSaveIf(t *testing.T, s *Store, sess *Session, conditional bool) {
	t.Helper()
	save := func() error { return s.Save("n", sess) }
	if conditional {
		save = func() error { return s.SaveIf("n", sess, 0) }
	}
	if err := save(); err != nil {
		t.Fatal(err)
	}
}

// A rename moves the link with the file: ChatCLI rewriting the new name
// before chatcli saves it again is still re-linked, and the old name keeps
// no link that a later session of that name could be tied by.
func TestRenameMovesTheLink(t *testing.T) {
	s, dir := journalledStore(t, 2)
	saved, _ := s.Load("n")
	if err := s.Rename("n", "m"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(LinkPath(dir, "n")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the old name's link is left: %v", err)
	}
	p, _ := s.Path("m")
	chatcliSaves(t, p)
	got, err := s.Load("m")
	if err != nil || !got.Relinked || got.TranscriptID != saved.TranscriptID {
		t.Fatalf("renamed and rewritten: not relinked: %+v %v", got, err)
	}
	if err := s.Save("m", got); err != nil {
		t.Fatal(err)
	}
	if got.Revision <= saved.Revision {
		t.Fatalf("revision %d after %d", got.Revision, saved.Revision)
	}
}

// A session made again under a name whose file was trashed or deleted
// continues that name's revisions whichever write makes it (Create as
// SaveIf of a missing file), so a window still holding the old file's
// revision never takes the new file for the one it knew.
func TestRevisionContinuesForANewFileUnderAnOldName(t *testing.T) {
	for _, how := range []string{"create", "saveif"} {
		s, _ := journalledStore(t, 5)
		if _, err := s.Trash("n"); err != nil {
			t.Fatal(err)
		}
		sess := &Session{History: []message.Message{{Role: message.RoleUser, Content: "other"}}}
		var err error
		if how == "create" {
			err = s.Create("n", sess)
		} else {
			err = s.SaveIf("n", sess, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, err := s.StatFile("n"); err != nil || h.Revision <= 5 {
			t.Fatalf("%s: the new file's revision %d is not above the trashed file's 5 (%v)", how, h.Revision, err)
		}
	}
}

// With the journal off (a session without transcript_id) the link keeps the
// name's revision alone: after ChatCLI's rewrite the next save still
// continues above every revision chatcli wrote, however many saves came
// before, and a link naming a journal keeps naming it.
func TestRevisionContinuesAfterChatCLIRewriteWithoutJournal(t *testing.T) {
	for _, saves := range []int{1, linkRevisionStep + 5} {
		s := newStore(t)
		dir := filepath.Join(filepath.Dir(s.Dir()), "transcripts")
		s.SetJournalDir(dir)
		sess := &Session{History: []message.Message{{Role: message.RoleUser, Content: "q"}, {Role: message.RoleAssistant, Content: "a"}}}
		for range saves {
			if err := s.Save("n", sess); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := s.Path("n")
		last := int64(saves)
		for round, conditional := range []bool{false, true} {
			chatcliSaves(t, p)
			got, err := s.Load("n")
			if err != nil || got.Revision != 0 || got.Relinked {
				t.Fatalf("after the rewrite: %+v %v", got, err)
			}
			saveOrSaveIf(t, s, got, conditional)
			if h, _ := s.StatFile("n"); h.Revision <= last {
				t.Fatalf("%d saves, round %d: revision %d after %d", saves, round, h.Revision, last)
			}
			last = got.Revision
		}
		if LinkedJournal(dir, "n") != "" {
			t.Fatal("a session without a journal got one in its link")
		}
	}
	s, dir := journalledStore(t, 1)
	id := LinkedJournal(dir, "n")
	if err := s.Save("n", &Session{History: []message.Message{{Role: message.RoleUser, Content: "other"}}}); err != nil {
		t.Fatal(err)
	}
	if got := LinkedJournal(dir, "n"); got != id || id == "" {
		t.Fatalf("a save without a journal changed the link's journal %q to %q", id, got)
	}
}
