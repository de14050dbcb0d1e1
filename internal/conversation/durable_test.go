package conversation

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// A write-through whose file landed but whose folder fsync failed is a
// write: the engine says it is not known to be durable and goes on from
// the revision it wrote. Taking it for a failed save left the turn
// unsaved, so the next turn met its own write as another window's and
// merged it in: the turn was in the file twice.
func TestAWriteNotKnownDurableIsNotWrittenTwice(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	turn(t, e, "one")
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	orig := atomicfile.DirSync
	t.Cleanup(func() { atomicfile.DirSync = orig })
	atomicfile.DirSync = func(*os.File) error { return syscall.EIO }
	_, err := e.Turn(context.Background(), "two", nil)
	atomicfile.DirSync = orig
	turn(t, e, "three")
	s, lerr := f.store.Load("s")
	if lerr != nil {
		t.Fatal(lerr)
	}
	if got := users(s.History); got != "one,two,three" {
		t.Fatalf("the session holds the prompts %q, want one,two,three", got)
	}
	if list, _ := f.store.List(); len(list) != 1 {
		t.Fatalf("sessions %d, want 1 (no conflict fork)", len(list))
	}
	if err != nil {
		t.Fatalf("the turn whose write landed failed: %v", err)
	}
	if !strings.Contains(strings.Join(f.notices, "\n"), "not known to be durable") {
		t.Fatalf("no notice says the write is not known to be durable: %q", f.notices)
	}
}
