package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// longSession is a session whose file runs well past its header block.
func longSession() *Session {
	sess := &Session{}
	for i := range 40 {
		sess.History = append(sess.History, message.Message{Role: message.RoleUser, Content: fmt.Sprintf("turn %d %s", i, strings.Repeat("x", 200))},
			message.Message{Role: message.RoleAssistant, Content: "ok"})
	}
	return sess
}

// unmarkedCopy writes the bytes of session from's file as session to's, a
// file of chatcli's layout this store did not write (an earlier build's),
// with an mtime an hour old, and returns its path.
func unmarkedCopy(t *testing.T, s *Store, from, to string) string {
	t.Helper()
	p := filepath.Join(s.Dir(), to+".json")
	if err := os.WriteFile(p, readBytes(t, filepath.Join(s.Dir(), from+".json")), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// breakInPlace writes, in place (the same inode, its mark kept, the same
// size), a number where Load wants the string content of the last
// message of the file at p, past its header block.
func breakInPlace(t *testing.T, p string) {
	t.Helper()
	at := bytes.LastIndex(readBytes(t, p), []byte(`"content":"ok"`))
	if at < headerBufBytes {
		t.Fatalf("the last message is at byte %d, within the header block", at)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(`"content":5555`), int64(at)); err != nil {
		t.Fatal(err)
	}
}

// countWholeReads counts, by file name, the files read whole after their
// header block.
func countWholeReads(t *testing.T) map[string]int {
	reads := map[string]int{}
	onWholeCheck = func(p string) { reads[filepath.Base(p)]++ }
	t.Cleanup(func() { onWholeCheck = func(string) {} })
	return reads
}

// marked reports whether the file at p carries the mark of its size and
// mtime.
func marked(t *testing.T, p string) bool {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return writtenHere(f, st)
}

// A file of chatcli's layout without the mark (an earlier build wrote it)
// is read whole by the first listing, which then marks it: the next
// listing answers from the index, though the mark moved the file's ctime
// past the listing's start, and once the index is lost the file is read
// by its header block, never whole again.
func TestListMarksAFileItReadWhole(t *testing.T) {
	s := newStore(t)
	if !attrsKept(t, s) {
		t.Skip("the file system keeps no extended attributes")
	}
	if err := s.Save("new", longSession()); err != nil {
		t.Fatal(err)
	}
	p := unmarkedCopy(t, s, "new", "old")
	if err := os.Remove(filepath.Join(s.Dir(), "new.json")); err != nil {
		t.Fatal(err)
	}
	reads := countWholeReads(t)
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Err != nil || list[0].Messages != 80 {
		t.Fatalf("first listing: %+v %v", list, err)
	}
	if reads["old.json"] != 1 || !marked(t, p) {
		t.Fatalf("read whole %d times, marked %v; want once, and marked", reads["old.json"], marked(t, p))
	}
	setIndexedTitle(t, s, "old.json", "from the index")
	if list, _ := s.List(); list[0].Title != "from the index" {
		t.Fatalf("the listing after the mark did not answer from the index: %+v", list[0])
	}
	if err := os.Remove(s.listIndexPath()); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(); list[0].Err != nil || list[0].Messages != 80 || reads["old.json"] != 1 {
		t.Fatalf("without its index: %+v, read whole %d times", list[0], reads["old.json"])
	}
}

// A file is not marked by a listing that found it unsound, that found its
// header block saying something its whole document does not (a
// message_count an editor left behind), or during whose read the file
// changed; each is read whole again once the index is lost, and listed as
// the whole read found it.
func TestListMarksOnlyAFileItConfirmed(t *testing.T) {
	s := newStore(t)
	if !attrsKept(t, s) {
		t.Skip("the file system keeps no extended attributes")
	}
	if err := s.Save("src", longSession()); err != nil {
		t.Fatal(err)
	}
	good := readBytes(t, filepath.Join(s.Dir(), "src.json"))
	last := []byte(`{"role":"assistant","content":"ok"}`)
	at := bytes.LastIndex(good, last)
	docs := map[string][]byte{
		"unsound":   slices.Concat(good[:at], []byte(`{"role":"assistant","content":5555}`), good[at+len(last):]),
		"miscount":  slices.Concat(good[:at], last, []byte(","), good[at:]),
		"changing":  good,
		"confirmed": good,
	}
	for name, data := range docs {
		if err := os.WriteFile(filepath.Join(s.Dir(), name+".json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(s.Dir(), "src.json")); err != nil {
		t.Fatal(err)
	}
	reads := countWholeReads(t)
	onWholeCheck = func(p string) {
		reads[filepath.Base(p)]++
		if filepath.Base(p) == "changing.json" {
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(p, later, later); err != nil {
				t.Error(err)
			}
		}
	}
	want := map[string]int{"miscount": 81, "changing": 80, "confirmed": 80}
	for round := 1; round <= 2; round++ {
		list, err := s.List()
		if err != nil || len(list) != len(docs) {
			t.Fatalf("listing %d: %+v %v", round, list, err)
		}
		for _, h := range list {
			if n, ok := want[h.Name]; (h.Err == nil) != ok || ok && h.Messages != n {
				t.Errorf("listing %d: %s: %d messages, error %v", round, h.Name, h.Messages, h.Err)
			}
			if got := marked(t, filepath.Join(s.Dir(), h.Name+".json")); got != (h.Name == "confirmed") {
				t.Errorf("listing %d: %s marked: %v", round, h.Name, got)
			}
		}
		os.Remove(s.listIndexPath())
	}
	for name := range docs {
		if n := reads[name+".json"]; n != 2 && name != "confirmed" || n != 1 && name == "confirmed" {
			t.Errorf("%s read whole %d times", name, n)
		}
	}
}

// Stat reads a file as List does: a file of chatcli's layout edited past
// its header block, in place (its mark no longer matching), or written by
// another program, gets from Stat the verdict and the count List and Load
// give, not what its header block says.
func TestStatAndListAgreePastTheHeaderBlock(t *testing.T) {
	s := newStore(t)
	if err := s.Save("edited", longSession()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(s.Dir(), "edited.json")
	good := readBytes(t, p)
	breakInPlace(t, p)
	one := []byte(`{"role":"assistant","content":"ok"}`)
	i := bytes.LastIndex(good, one)
	extra := slices.Concat(good[:i], one, []byte(","), good[i:]) // one message more than message_count says
	if err := os.WriteFile(filepath.Join(s.Dir(), "extra.json"), extra, 0o600); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ { // the second after the mark and the index
		list, err := s.List()
		if err != nil || len(list) != 2 {
			t.Fatalf("list: %+v %v", list, err)
		}
		for _, l := range list {
			h, err := s.Stat(l.Name)
			sess, lerr := s.Load(l.Name)
			if (err == nil) != (l.Err == nil) || (lerr == nil) != (l.Err == nil) {
				t.Errorf("round %d: %s: Stat says %v, List %v, Load %v", round, l.Name, err, l.Err, lerr)
			}
			if err == nil && lerr == nil && (h.Messages != l.Messages || h.Messages != len(sess.History)) {
				t.Errorf("round %d: %s: Stat counts %d messages, List %d, Load %d", round, l.Name, h.Messages, l.Messages, len(sess.History))
			}
		}
	}
	if _, err := s.Stat("edited"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Stat of the edited file: %v", err)
	}
}

// A listing that reads files whole reports its progress through
// SetListProgress, ending with every file done, and a listing answered
// without whole reads reports none.
func TestListReportsItsWholeReads(t *testing.T) {
	s := newStore(t)
	if err := s.Save("src", longSession()); err != nil {
		t.Fatal(err)
	}
	const n = 12
	for i := range n {
		unmarkedCopy(t, s, "src", fmt.Sprintf("old-%02d", i))
	}
	if err := os.Remove(filepath.Join(s.Dir(), "src.json")); err != nil {
		t.Fatal(err)
	}
	delay, every := listProgressDelay, listProgressEvery
	listProgressDelay, listProgressEvery = 0, time.Millisecond
	t.Cleanup(func() { listProgressDelay, listProgressEvery = delay, every })
	onWholeCheck = func(string) { time.Sleep(5 * time.Millisecond) }
	t.Cleanup(func() { onWholeCheck = func(string) {} })
	var calls [][2]int
	s.SetListProgress(func(done, total int) { calls = append(calls, [2]int{done, total}) })
	list, err := s.List()
	if err != nil || len(list) != n {
		t.Fatalf("list: %d %v", len(list), err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != [2]int{n, n} {
		t.Fatalf("progress %v, want calls ending with %d of %d", calls, n, n)
	}
	for i, c := range calls {
		if c[1] != n || c[0] > n || i > 0 && c[0] < calls[i-1][0] {
			t.Fatalf("progress %v", calls)
		}
	}
	if !attrsKept(t, s) {
		return // every listing reads them whole again where the index does not answer
	}
	calls = nil
	os.Remove(s.listIndexPath())
	if _, err := s.List(); err != nil || len(calls) != 0 {
		t.Fatalf("a listing without whole reads reported %v (%v)", calls, err)
	}
}

// An edit in place that keeps the file's size and puts back its exact
// mtime, made after the store wrote and marked the file, is seen though
// the file has no list index entry and the process never read it: the
// mark records the ctime it was set at, which the edit moved. A file the
// store moved since (rename, trash and restore) is still read by its
// header block.
func TestMarkSeesAnEditThatRestoresSizeAndMtime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the mark records the ctime on Linux only")
	}
	w := newStore(t)
	if !attrsKept(t, w) {
		t.Skip("the file system keeps no extended attributes")
	}
	slack := markSlack
	markSlack = 400 * time.Millisecond // short, yet above a loaded machine's stalls between fstat and set
	t.Cleanup(func() { markSlack = slack })
	for _, name := range []string{"edited", "moved"} {
		if err := w.Save(name, longSession()); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(w.Dir(), "edited.json")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * markSlack)
	breakInPlace(t, p)
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := w.Rename("moved", "renamed"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Trash("renamed"); err != nil {
		t.Fatal(err)
	}
	if err := w.Restore("renamed"); err != nil {
		t.Fatal(err)
	}
	s := reopen(t, w, seal.Key{}) // another process: nothing of w's memory
	reads := countWholeReads(t)
	if h, err := s.Stat("edited"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Stat of the edited file: %+v %v", h, err)
	}
	list, err := s.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	for _, h := range list {
		if (h.Err == nil) != (h.Name == "renamed") {
			t.Errorf("%s: listed with error %v", h.Name, h.Err)
		}
	}
	if reads["renamed.json"] != 0 {
		t.Errorf("the renamed, trashed and restored file was read whole %d times", reads["renamed.json"])
	}
}

// The trash's listing reads a trashed copy as List reads a session file:
// a copy edited past its header block is listed as damaged, as Load
// would find it once restored, not as sound by its first block.
func TestTrashListAgreesWithLoadPastTheHeaderBlock(t *testing.T) {
	s := newStore(t)
	if err := s.Save("kept", longSession()); err != nil {
		t.Fatal(err)
	}
	e, err := s.Trash("kept")
	if err != nil {
		t.Fatal(err)
	}
	breakInPlace(t, e.Path)
	list, err := s.TrashList()
	if err != nil || len(list) != 1 {
		t.Fatalf("trash list: %+v %v", list, err)
	}
	if !errors.Is(list[0].Err, ErrCorrupt) {
		t.Fatalf("the edited copy is listed with error %v, want %v", list[0].Err, ErrCorrupt)
	}
}

// Sealing a plaintext file whose first block miscounts its messages (an
// edit by hand) gives a sealed header counting what the document holds,
// so the sealed file lists as Load reads it.
func TestSealingCountsTheWholeDocument(t *testing.T) {
	plain := newStore(t)
	if err := plain.Save("extra", longSession()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(plain.Dir(), "extra.json")
	good := readBytes(t, p)
	one := []byte(`{"role":"assistant","content":"ok"}`)
	i := bytes.LastIndex(good, one)
	if err := os.WriteFile(p, slices.Concat(good[:i], one, []byte(","), good[i:]), 0o600); err != nil {
		t.Fatal(err)
	}
	sealed := reopen(t, plain, testKey(t, 1))
	if changed, err := sealed.RekeyFile("extra", p, seal.Key{}); err != nil || !changed {
		t.Fatalf("seal: %v %v", changed, err)
	}
	sess, err := sealed.Load("extra")
	if err != nil {
		t.Fatal(err)
	}
	list, err := sealed.List()
	if err != nil || len(list) != 1 || list[0].Err != nil {
		t.Fatalf("list: %+v %v", list, err)
	}
	if list[0].Messages != len(sess.History) {
		t.Fatalf("the sealed file lists %d messages, Load reads %d", list[0].Messages, len(sess.History))
	}
}

// What this store remembers of the files it wrote or checked sees an
// edit in place that restores size and mtime, as the mark does: once
// markSlack has passed, Stat in the process that wrote the file reads it
// whole and finds it damaged, as Load does.
func TestRememberedFilesSeeAnEditThatRestoresSizeAndMtime(t *testing.T) {
	defer func(d time.Duration) { markSlack = d }(markSlack)
	markSlack = 400 * time.Millisecond
	s := newStore(t)
	if err := s.Save("edited", longSession()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(s.Dir(), "edited.json")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * markSlack)
	breakInPlace(t, p)
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("edited"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Load of the edited file: %v", err)
	}
	if _, err := s.Stat("edited"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Stat of the edited file in the process that wrote it: %v, want %v", err, ErrCorrupt)
	}
}

// A session file that changes while TrashCopy reads it (another program
// writing it) gives a copy whose bytes the store cannot vouch for (they
// may be of two versions): the copy is not marked as the session's file
// was, so it is read whole and checked before the trash lists it sound.
func TestATrashCopyReadWhileTheFileChangesIsCheckedWhole(t *testing.T) {
	s := newStore(t)
	if err := s.Save("busy", longSession()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(s.Dir(), "busy.json")
	defer func() { onCopyRead = func(string) {} }()
	onCopyRead = func(string) {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		breakInPlace(t, p) // the same size, past the header block
		if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	reads := countWholeReads(t)
	e, err := s.TrashCopy("busy")
	if err != nil {
		t.Fatal(err)
	}
	if reads[e.File] != 1 {
		t.Fatalf("the copy of a file that changed during its read was read whole %d times before it was listed, want 1", reads[e.File])
	}
}
