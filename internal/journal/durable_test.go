package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/message"
)

// An append waits for a journal's lock as a session write waits for a
// session's, then fails with ErrLocked naming the file, instead of waiting
// for ever on a process that is stuck holding it.
func TestAppendGivesUpOnAHeldLock(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	held := flock.New(Path(dir, id))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	prev := lockTimeout
	lockTimeout = 30 * time.Millisecond
	t.Cleanup(func() { lockTimeout = prev })
	done := make(chan error, 1)
	go func() {
		_, err := j.Sync([]message.Message{msg("user", "a")}, ReasonSync)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), Path(dir, id)) {
			t.Fatalf("Sync on a held lock: %v, want ErrLocked naming %s", err, Path(dir, id))
		}
	case <-time.After(10 * time.Second): // far beyond the 30 ms timeout
		held.Unlock()
		t.Fatal("Sync still waits for a held lock: no timeout")
	}
	if data, _ := os.ReadFile(Path(dir, id)); len(data) != 0 {
		t.Fatalf("appended without the lock: %q", data)
	}
}

// dirSyncs records the folders fsynced (base names), answering *fail.
func dirSyncs(t *testing.T, fail *error) *[]string {
	t.Helper()
	var got []string
	orig := atomicfile.DirSync
	t.Cleanup(func() { atomicfile.DirSync = orig })
	atomicfile.DirSync = func(d *os.File) error {
		got = append(got, filepath.Base(d.Name()))
		if *fail != nil {
			return *fail
		}
		return orig(d)
	}
	return &got
}

// The first append to a new journal fsyncs the folder once, so the new
// file's entry survives a crash along with its records; later appends do
// not. When that fsync fails nothing is appended, and the error does not
// claim the records were written.
func TestTheFirstAppendMakesTheNewFileDurable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "transcripts")
	j := open(t, dir, NewID())
	h := []message.Message{msg("user", "a")}
	var fail error = syscall.EIO
	got := dirSyncs(t, &fail)
	if _, err := j.Sync(h, ReasonSync); !errors.Is(err, syscall.EIO) || errors.Is(err, atomicfile.ErrNotDurable) {
		t.Fatalf("first append with a failing folder fsync: %v", err)
	}
	if data, _ := os.ReadFile(j.Path()); len(data) != 0 {
		t.Fatalf("appended before the new file was durable: %q", data)
	}
	fail, *got = nil, nil
	sync1(t, j, h, 1)
	h = append(h, msg("assistant", "b"))
	sync1(t, j, h, 1)
	if strings.Join(*got, " ") != "transcripts" {
		t.Fatalf("folders fsynced by two appends: %q, want the journal folder once", *got)
	}
}
