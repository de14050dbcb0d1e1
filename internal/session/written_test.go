package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// attrsKept reports whether the file system under s keeps the extended
// attribute of files this store writes (written.go).
func attrsKept(t *testing.T, s *Store) bool {
	t.Helper()
	p := filepath.Join(s.Dir(), ".attr-probe")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(p)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf [8]byte
	if setAttr(f, writtenAttr, []byte("probe")) != nil {
		return false
	}
	n, ok := getAttr(f, writtenAttr, buf[:])
	return ok && string(buf[:n]) == "probe"
}

// A header List keeps in its index still counts the journal records
// written after it: the index keeps the journal position it covers, and a
// listing from the index reads the tail from there, as Load does.
func TestIndexedHeaderCountsItsJournalTail(t *testing.T) {
	s, j, h := journalledSession(t)
	p := filepath.Join(s.Dir(), "n.json")
	if err := os.WriteFile(p, readBytes(t, p), 0o600); err != nil { // the same bytes, not marked: indexed
		t.Fatal(err)
	}
	for turn := 1; turn <= 3; turn++ {
		list, err := s.List()
		if err != nil || len(list) != 1 {
			t.Fatal(list, err)
		}
		sess, err := s.Load("n")
		if err != nil {
			t.Fatal(err)
		}
		if list[0].Messages != len(h) || len(sess.History) != len(h) {
			t.Fatalf("turn %d: listed %d messages, loaded %d, journal holds %d", turn, list[0].Messages, len(sess.History), len(h))
		}
		if _, ok := s.readListIndex()["n.json"]; !ok {
			t.Fatal("not in the list index: the test proves nothing")
		}
		h = append(h, message.Message{Role: message.RoleUser, Content: fmt.Sprint("more ", turn)})
		if _, err := j.Sync(h, journal.ReasonSync); err != nil {
			t.Fatal(err)
		}
	}
}

// An index entry an earlier build wrote is not trusted: its file is read
// again, whether the entry has no rules member (size and mtime alone, or
// with the inode, ctime and listing time), or the rules of a build that
// keyed it by size and mtime alone. A verdict of this build's rules, a
// file Load refuses included, answers for the unchanged file; a rewrite
// in place to the same size and mtime is read again.
func TestListIndexOfAnEarlierBuildIsReadAgain(t *testing.T) {
	ageListIndex(t)
	s := newStore(t)
	doc := `{"version":2,"chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":55}]}`
	p := filepath.Join(s.Dir(), "x.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(s.listIndexPath()), 0o700); err != nil {
		t.Fatal(err)
	}
	ino, ctime := inodeChange(info)
	stamp := fmt.Sprintf(`"size":%d,"mtime_ns":%d`, info.Size(), info.ModTime().UnixNano())
	header := `"title":"hi","messages":2,"updated_at":"2026-01-01T00:00:00Z","version":2`
	for _, old := range []string{
		stamp + "," + header,
		`"rules":1,` + stamp + "," + header,
		stamp + fmt.Sprintf(`,"ino":%d,"ctime_ns":%d,"listed_ns":%d,`, ino, ctime, fileClock().UnixNano()) + header,
	} {
		if err := os.WriteFile(s.listIndexPath(), []byte(`{"x.json":{`+old+`}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		list, err := s.List()
		if err != nil || len(list) != 1 || !errors.Is(list[0].Err, ErrCorrupt) {
			t.Fatalf("an earlier build's verdict was trusted (%s): %+v %v", old, list, err)
		}
	}
	e, ok := s.readListIndex()["x.json"]
	if !ok || e.Rules != listIndexRules || e.Corrupt == "" {
		t.Fatalf("the verdict was not kept: %+v %v", e, ok)
	}
	e.Corrupt = "from the index"
	s.writeListIndex(listIndex{"x.json": e})
	list, err := s.List()
	if err != nil || len(list) != 1 || !errors.Is(list[0].Err, ErrCorrupt) || !strings.HasSuffix(list[0].Err.Error(), ": from the index") {
		t.Fatalf("the kept verdict was not used: %+v %v", list, err)
	}
	if ino == 0 {
		return // no ctime to see the rewrite by (inodeChange)
	}
	sound := strings.Replace(doc, `"content":55`, `"content":""`, 1)
	if len(sound) != len(doc) {
		t.Fatalf("sizes %d, %d", len(sound), len(doc))
	}
	if err := os.WriteFile(p, []byte(sound), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 || list[0].Err != nil {
		t.Fatalf("a file rewritten in place was listed from the index: %+v %v", list, err)
	}
}
