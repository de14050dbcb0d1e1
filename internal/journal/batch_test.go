package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// countSyncs replaces syncFile for the test and returns the counter.
func countSyncs(t *testing.T, fail error) *int {
	t.Helper()
	n := new(int)
	prev := syncFile
	syncFile = func(f *os.File) error {
		*n++
		if fail != nil {
			return fail
		}
		return f.Sync()
	}
	t.Cleanup(func() { syncFile = prev })
	return n
}

// A history that reaches the journal all at once (a session saved with the
// journal off, an import, a ChatCLI file) costs one write and one fsync,
// not one per message; a compaction's summary and rewrite record share one
// too.
func TestFirstSyncOfALongHistoryIsOneFsync(t *testing.T) {
	syncs := countSyncs(t, nil)
	j := open(t, t.TempDir(), NewID())
	h := make([]message.Message, 10000)
	for i := range h {
		h[i] = msg(message.RoleUser, fmt.Sprint("message ", i))
		if i%2 == 1 {
			h[i].Role = message.RoleAssistant
		}
	}
	sync1(t, j, h, 10000)
	if *syncs != 1 {
		t.Fatalf("first Sync of 10,000 messages: %d fsyncs, want 1", *syncs)
	}
	compacted := append([]message.Message{msg(message.RoleUser, "summary")}, h[9990:]...)
	sync1(t, j, compacted, 2) // the summary and one rewrite
	if *syncs != 2 {
		t.Fatalf("compaction: %d fsyncs in all, want 2", *syncs)
	}
	if got := len(messagesOf(t, j.Path())); got != 10001 {
		t.Fatalf("journal holds %d messages, want 10001", got)
	}
}

// A failed fsync is an error and the handle's view stays as it was, so
// the next Sync appends the same records again rather than skipping them.
func TestFailedFsyncIsReportedAndRetried(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	h := []message.Message{msg("user", "a"), msg("assistant", "b")}
	eio := errors.New("input/output error")
	countSyncs(t, eio)
	if _, err := j.Sync(h, ReasonSync); !errors.Is(err, eio) {
		t.Fatalf("Sync with a failing fsync: %v", err)
	}
	syncFile = (*os.File).Sync
	if n, err := j.Sync(h, ReasonSync); err != nil || n != 0 {
		// the bytes reached the file: a fresh read finds them
		t.Fatalf("second Sync appended %d (%v), want 0: the first write's records were read back", n, err)
	}
	if got := len(messagesOf(t, Path(dir, id))); got != 2 {
		t.Fatalf("journal holds %d messages, want 2 (nothing twice)", got)
	}
}

// A fork starts clean: a torn line a crash left in the middle of the
// source (completed by a later append) is not copied, and every record is.
func TestForkLeavesOutATornLine(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	sync1(t, j, []message.Message{msg("user", "one"), msg("assistant", "r1")}, 2)
	f, _ := os.OpenFile(j.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"message","seq":3,"at":"2026-12-01T`)
	f.Close()
	h := []message.Message{msg("user", "one"), msg("assistant", "r1"), msg("user", "two"), msg("assistant", "r2")}
	if _, err := j.Sync(h, ReasonSync); err != nil {
		t.Fatal(err)
	}
	nid, dropped, err := Fork(dir, id, noKey)
	if err != nil || len(dropped) != 1 {
		t.Fatalf("fork: %v, dropped %v", err, dropped)
	}
	recs, res, err := ReadAll(Path(dir, nid), noKey)
	if err != nil || len(res.Warnings) != 0 || len(recs) != 4 {
		t.Fatalf("the fork: %d records, warnings %v, %v", len(recs), res.Warnings, err)
	}
}

// A write that fails part way, as on a full disk, leaves the journal
// byte-identical, and the next Sync appends the records whole.
func TestFailedWriteLeavesTheJournalAsItWas(t *testing.T) { // case dur-1
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	h := []message.Message{msg("user", "a"), msg("assistant", "b")}
	sync1(t, j, h, 2)
	before, err := os.ReadFile(Path(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	enospc := syscall.ENOSPC
	prev := writeFile
	writeFile = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, enospc
	}
	t.Cleanup(func() { writeFile = prev })
	h = append(h, msg("user", strings.Repeat("c", 1<<16)), msg("assistant", "d"))
	if _, err := j.Sync(h, ReasonSync); !errors.Is(err, enospc) {
		t.Fatalf("Sync on a full disk: %v", err)
	}
	after, _ := os.ReadFile(Path(dir, id))
	if !bytes.Equal(before, after) {
		t.Fatalf("the journal changed: %d bytes, was %d", len(after), len(before))
	}
	writeFile = prev
	if n, err := j.Sync(h, ReasonSync); err != nil || n != 2 {
		t.Fatalf("Sync once there is room: %d %v, want 2 records", n, err)
	}
	if _, res, err := ReadAll(Path(dir, id), noKey); err != nil || len(res.Warnings) != 0 {
		t.Fatalf("read back: %v %v", err, res.Warnings)
	}
	if got := len(messagesOf(t, Path(dir, id))); got != 4 {
		t.Fatalf("journal holds %d messages, want 4", got)
	}
}
