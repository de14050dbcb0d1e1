package conversation

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// offWindows returns window off (write-through off) and window on, both
// bound to session "s", which holds the turn "zero".
func offWindows(t *testing.T) (st *session.Store, journals string, off, on *window) {
	t.Helper()
	return twoWindowsWith(t, func(e *Engine) { e.noWriteThrough = true })
}

func TestWriteThroughOffWritesTheSessionOnlyAtExit(t *testing.T) {
	st, journals, off, _ := offWindows(t)
	before, _ := st.StatFile("s")
	turn(t, off.Engine, "one")
	turn(t, off.Engine, "two")
	// Neither the file nor its journal's tail has the turns: a reader
	// (another window) sees the session as it was.
	if s, err := st.Load("s"); err != nil || users(s.History) != "zero" {
		t.Fatalf("the session took turns with write-through off: %q %v", users(s.History), err)
	}
	if h, _ := st.StatFile("s"); h.Revision != before.Revision {
		t.Fatalf("the file was written: revision %d, was %d", h.Revision, before.Revision)
	}
	if !off.Dirty() {
		t.Fatal("the turns are saved in no session yet: Dirty must say so")
	}
	if name, err := off.Close(true); err != nil || name != "" {
		t.Fatalf("exit: %q %v", name, err)
	}
	s, err := st.Load("s")
	if err != nil || users(s.History) != "zero,one,two" {
		t.Fatalf("at exit the session holds every turn: %q %v", users(s.History), err)
	}
	// Its journal is the window's copy: the whole transcript is in it.
	checkJournal(t, journals, s.TranscriptID, "zero", "one", "two")
	// Closing again (a surface's last close) copies nothing more: the
	// session's journal and the one copy made at the load.
	if _, err := off.Close(true); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(journals, "*.jsonl")); len(files) != 2 {
		t.Fatalf("want the session's journal and one copy, got %d: %v", len(files), files)
	}
	if autosaves(t, st) != 0 {
		t.Fatal("a bound conversation makes no autosave")
	}
}

func TestWriteThroughOffAdoptsNothingAndNeverOverwritesAnotherWindow(t *testing.T) {
	for _, other := range []string{"journal tail", "file"} {
		t.Run(other, func(t *testing.T) {
			st, _, off, on := offWindows(t)
			turn(t, off.Engine, "a1")
			turn(t, on.Engine, "b1") // the on window never sees a1 ...
			if users(on.History()) != "zero,b1" {
				t.Fatalf("the on window took in the off window's turn: %q", users(on.History()))
			}
			if other == "file" {
				if err := on.snapshot(); err != nil { // ... and writes the file itself
					t.Fatal(err)
				}
			}
			turn(t, off.Engine, "a2") // ... nor the off window b1
			if users(off.History()) != "zero,a1,a2" {
				t.Fatalf("the off window adopted: %q", users(off.History()))
			}
			if _, err := off.Close(true); err != nil {
				t.Fatal(err)
			}
			if s, _ := st.Load("s"); users(s.History) != "zero,b1" {
				t.Fatalf("the session must keep the other window's turn: %q", users(s.History))
			}
			fork := "s" + ConflictInfix + "20261130-090000"
			f, err := st.Load(fork)
			if err != nil || users(f.History) != "zero,a1,a2" {
				t.Fatalf("the off window's conversation must be kept as %s: %q %v", fork, users(f.History), err)
			}
			if !strings.Contains(strings.Join(off.notices, "\n"), fork) {
				t.Fatalf("the conflict fork is announced: %v", off.notices)
			}
		})
	}
}

func autosaves(t *testing.T, st *session.Store) int {
	t.Helper()
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range list {
		if strings.HasPrefix(h.Name, AutosavePrefix) {
			n++
		}
	}
	return n
}

// With write-through off, the window commits to a copy of the session's
// journal that the session does not name: a session made from it still
// names the journal its parent's file names, so the tree finds the parent.
func TestWriteThroughOffLineageNamesTheParentFilesJournal(t *testing.T) {
	for _, how := range []string{"fork", "save", "attach"} {
		t.Run(how, func(t *testing.T) {
			st, _, off, _ := offWindows(t)
			turn(t, off.Engine, "a1")
			var err error
			switch how {
			case "fork":
				err = off.Fork("child")
			case "save":
				err = off.Save("child", false)
			case "attach":
				_, _, err = off.Attach("child")
			}
			if err != nil {
				t.Fatal(err)
			}
			parent, err := st.Load("s")
			if err != nil {
				t.Fatal(err)
			}
			l := lineageOf(t, st, "child")
			if l == nil || l.Parent != "s" || l.ParentTranscript != parent.TranscriptID {
				t.Fatalf("lineage %+v, want parent s with its file's journal %q", l, parent.TranscriptID)
			}
			list, err := st.List()
			if err != nil {
				t.Fatal(err)
			}
			for _, root := range session.Tree(list) {
				if root.Header.Name == "child" {
					t.Fatalf("the tree lost child's parent (gone: %v)", root.ParentGone)
				}
			}
		})
	}
}

// TestWriteThroughOffConflictForkHangsUnderItsSession: the conflict fork a
// window with write-through off leaves names the session it stands beside
// as it stays live, so `session tree` draws it under that session (not as
// the fork of a session gone), from the messages both still share.
func TestWriteThroughOffConflictForkHangsUnderItsSession(t *testing.T) {
	for _, other := range []string{"on", "off"} {
		t.Run(other, func(t *testing.T) {
			st, _, off, w := twoWindowsWith(t, func(e *Engine) { e.noWriteThrough = true })
			if other == "off" {
				w.noWriteThrough = true
			}
			turn(t, off.Engine, "a1")
			turn(t, w.Engine, "b1")
			if _, err := w.Close(true); err != nil {
				t.Fatal(err)
			}
			turn(t, off.Engine, "a2")
			if _, err := off.Close(true); err != nil {
				t.Fatal(err)
			}
			list, err := st.List()
			if err != nil {
				t.Fatal(err)
			}
			roots := session.Tree(list)
			if len(roots) != 1 || roots[0].Header.Name != "s" || len(roots[0].Children) != 1 {
				t.Fatalf("want s with its conflict fork under it, got %d roots: %+v", len(roots), roots)
			}
			fork := roots[0].Children[0].Header
			if !strings.HasPrefix(fork.Name, "s"+ConflictInfix) || fork.Lineage.At != 2 {
				t.Fatalf("want the conflict fork from s's 2 shared messages, got %q at %d", fork.Name, fork.Lineage.At)
			}
		})
	}
}
