package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/message"
)

func turn(text string) []message.Message {
	return []message.Message{{Role: message.RoleUser, Content: text}, {Role: message.RoleAssistant, Content: "re: " + text}}
}

func TestSaveIfRefusesAStaleRevisionAndChangesNothing(t *testing.T) {
	s := newStore(t)
	a := &Session{History: turn("a")}
	if err := s.SaveIf("s", a, 0); err != nil || a.Revision != 1 {
		t.Fatalf("first SaveIf: %v, revision %d", err, a.Revision)
	}
	p, _ := s.Path("s")
	before, _ := os.ReadFile(p)

	stale := &Session{History: turn("b")}
	err := s.SaveIf("s", stale, 0)
	var ce *ConflictError
	if !errors.Is(err, ErrConflict) || !errors.As(err, &ce) || ce.Current != 1 || ce.Expected != 0 || ce.Name != "s" {
		t.Fatalf("stale SaveIf: %v (%+v)", err, ce)
	}
	if !strings.Contains(err.Error(), `"s"`) || !strings.Contains(err.Error(), "revision 1") {
		t.Fatalf("error does not name the session and revision: %v", err)
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Fatal("a refused SaveIf changed the file")
	}

	b := a.Clone()
	b.History = append(b.History, turn("c")...)
	if err := s.SaveIf("s", b, 1); err != nil || b.Revision != 2 {
		t.Fatalf("SaveIf at the stored revision: %v, revision %d", err, b.Revision)
	}
	if err := s.Delete("s"); err != nil {
		t.Fatal(err)
	}
	err = s.SaveIf("s", b, 2)
	if !errors.As(err, &ce) || !ce.Missing || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("SaveIf on a deleted session: %v", err)
	}
}

func TestSaveGoesAboveTheStoredRevision(t *testing.T) {
	s := newStore(t)
	for i := 0; i < 3; i++ {
		if err := s.Save("s", &Session{History: turn("x")}); err != nil {
			t.Fatal(err)
		}
	}
	stale := &Session{History: turn("old copy"), Revision: 1}
	if err := s.Save("s", stale); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.Stat("s"); h.Revision != 4 || stale.Revision != 4 {
		t.Fatalf("last-writer-wins save wrote revision %d (session says %d), want 4", h.Revision, stale.Revision)
	}
}

func TestLockTimeoutIsAClearErrorAndLosesNothing(t *testing.T) {
	s := newStore(t)
	if err := s.Save("s", &Session{History: turn("kept")}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("s")
	before, _ := os.ReadFile(p)
	lp, err := s.LockPath("s")
	if err != nil || lp != filepath.Join(filepath.Dir(s.Dir()), "locks", "s.lock") {
		t.Fatalf("LockPath: %q %v", lp, err)
	}
	other := flock.New(lp) // another holder: its own open file description
	if err := other.Lock(); err != nil {
		t.Fatal(err)
	}
	defer other.Unlock()
	s.SetLockTimeout(50 * time.Millisecond)
	start := time.Now()
	for _, save := range []func() error{
		func() error { return s.Save("s", &Session{History: turn("lost?")}) },
		func() error { return s.SaveIf("s", &Session{History: turn("lost?")}, 1) },
	} {
		err := save()
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), `"s"`) || !strings.Contains(err.Error(), lp) {
			t.Fatalf("want ErrLocked naming the session and %s, got %v", lp, err)
		}
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second { // not DefaultLockTimeout
		t.Fatalf("two timed-out saves took %s, want about 100ms", d)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("a save that could not lock changed the file")
	}
	if st := s.LockStats(); st.Acquired != 1 {
		t.Fatalf("lock stats count failed attempts: %+v", st)
	}
}

// appendTurns appends n turns to session name through SaveIf, reloading and
// retrying on every conflict, as the engine's merge does.
func appendTurns(s *Store, name, who string, n int) error {
	for i := 0; i < n; i++ {
		for {
			cur, err := s.Load(name)
			var rev int64
			switch {
			case errors.Is(err, ErrNotFound):
				cur = &Session{}
			case err != nil:
				return err
			default:
				rev = cur.Revision
			}
			cur.History = append(cur.History, turn(fmt.Sprintf("%s-%d", who, i))...)
			err = s.SaveIf(name, cur, rev)
			if err == nil {
				break
			}
			if !errors.Is(err, ErrConflict) {
				return err
			}
		}
	}
	return nil
}

// checkAllTurns checks that session name holds every turn of every writer
// in the writer's order, and revision == number of saves.
func checkAllTurns(t *testing.T, s *Store, name string, writers []string, n int) {
	t.Helper()
	got, err := s.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.History) != 2*n*len(writers) || got.Revision != int64(n*len(writers)) {
		t.Fatalf("%d messages at revision %d, want %d at %d: a turn was lost", len(got.History), got.Revision, 2*n*len(writers), n*len(writers))
	}
	next := map[string]int{}
	for _, m := range got.History {
		if m.Role != message.RoleUser {
			continue
		}
		who, i, _ := strings.Cut(m.Content, "-")
		if k, _ := strconv.Atoi(i); k != next[who] {
			t.Fatalf("%s: turn %d out of order (want %d)", who, k, next[who])
		}
		next[who]++
	}
}

func TestSaveIfSerialisesGoroutinesOnTwoStores(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	writers := []string{"a", "b", "c", "d"}
	var wg sync.WaitGroup
	errs := make(chan error, len(writers))
	for _, w := range writers {
		st, err := Open(dir) // a store per writer, as in separate processes
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); errs <- appendTurns(st, "s", w, 20) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, _ := Open(dir)
	checkAllTurns(t, s, "s", writers, 20)
}

// TestLockHelperProcess is a writer process for TestSaveIfSerialisesProcesses.
func TestLockHelperProcess(t *testing.T) {
	dir, who := os.Getenv("CHATCLI_LOCK_HELPER_DIR"), os.Getenv("CHATCLI_LOCK_HELPER_WHO")
	if dir == "" {
		t.Skip("helper process only")
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := appendTurns(s, "s", who, 25); err != nil {
		t.Fatal(err)
	}
}

func TestSaveIfSerialisesProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	writers := []string{"p", "q", "r"}
	var cmds []*exec.Cmd
	for _, w := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CHATCLI_LOCK_HELPER_DIR="+dir, "CHATCLI_LOCK_HELPER_WHO="+w)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s:\n%s", w, out.String())
			}
		})
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	s, _ := Open(dir)
	checkAllTurns(t, s, "s", writers, 25)
}

func TestLockFileGoesWithTheSession(t *testing.T) {
	s := newStore(t)
	lp, _ := s.LockPath("s")
	for _, gone := range []func() error{
		func() error { return s.Delete("s") },
		func() error { _, err := s.Trash("s"); return err },
		func() error { return s.Rename("s", "t") },
	} {
		if err := s.Save("s", &Session{History: turn("x")}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(lp); err != nil {
			t.Fatalf("no lock file after a save: %v", err)
		}
		if err := gone(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(lp); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("lock file left after the session went: %v", err)
		}
	}
	if names, _ := s.List(); len(names) != 1 || names[0].Name != "t" {
		t.Fatalf("lock files listed as sessions: %+v", names)
	}
}

func TestSaveLocksAfterItsLockFileIsRemoved(t *testing.T) {
	s := newStore(t)
	lp, _ := s.LockPath("s")
	os.MkdirAll(filepath.Dir(lp), 0o700)
	held := flock.New(lp)
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Save("s", &Session{History: turn("x")}) }()
	time.Sleep(20 * time.Millisecond) // the save is waiting
	os.Remove(lp)
	held.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	again := flock.New(lp)
	if ok, err := again.TryLock(); !ok || err != nil {
		t.Fatalf("the save kept a lock after returning: %v %v", ok, err)
	}
	again.Unlock()
}

func TestUpdateReadsAndWritesUnderTheLock(t *testing.T) {
	s := newStore(t)
	err := s.Update("s", func(cur *Session) (*Session, error) {
		if cur != nil {
			t.Fatalf("a missing session is passed as nil, got %+v", cur)
		}
		return &Session{History: turn("first")}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("s")
	before, _ := os.ReadFile(p)
	if err := s.Update("s", func(cur *Session) (*Session, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := s.Update("s", func(cur *Session) (*Session, error) { return cur, boom }); err != boom {
		t.Fatalf("fn's error: %v", err)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Fatal("an Update that wrote nothing changed the file")
	}
	err = s.Update("s", func(cur *Session) (*Session, error) {
		cur.History = append(cur.History, turn("second")...)
		cur.Revision = 0 // ignored: the stored revision counts
		return cur, nil
	})
	if got, _ := s.Load("s"); err != nil || len(got.History) != 4 || got.Revision != 2 {
		t.Fatalf("after two updates: %v, %d messages, revision %d", err, len(got.History), got.Revision)
	}
}
