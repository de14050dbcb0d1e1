package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// failTemp makes every durable whole-file write fail with errno until the
// test ends or the returned function is called.
func failTemp(t *testing.T, errno syscall.Errno) (restore func()) {
	orig := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: errno}
	}
	restore = func() { atomicfile.CreateTemp = orig }
	t.Cleanup(restore)
	return restore
}

// notSaved calls chat, which must answer a tool error that says the turn
// was not saved, what keeps it, and holds the reply; it returns the text.
func (f *fixture) notSaved(args map[string]any, want ...string) string {
	f.t.Helper()
	res := f.call("chat", args)
	txt := text(res)
	if !res.IsError {
		f.t.Fatalf("chat %v: a turn that was not saved is acknowledged: %q", args, txt)
	}
	var out ChatOutput
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil || out.Reply == "" || out.Session != "" {
		f.t.Fatalf("chat %v: structured content %s (%v)", args, data, err)
	}
	want = append(want, "the turn was not saved", "kept only in this server's memory", out.Reply, out.Warning)
	for _, w := range want {
		if !strings.Contains(txt, w) {
			f.t.Fatalf("chat %v: %q does not say %q", args, txt, w)
		}
	}
	return txt
}

func TestATurnThatCannotBeMirroredIsAToolError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		errno syscall.Errno
		says  string
	}{
		{"full disk", syscall.ENOSPC, "no space left on device"},
		{"read-only store", syscall.EROFS, "read-only file system"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, setup{})
			restore := failTemp(t, tc.errno)
			f.notSaved(map[string]any{"prompt": "lost?"}, tc.says, `mirror "`+mirror1+`" on disk does not hold this turn`)
			if _, err := f.store.Load(mirror1); err == nil {
				t.Fatal("a mirror was written through a failing write")
			}
			restore()
			if out := f.chat(map[string]any{"prompt": "again"}); out.Session != mirror1 {
				t.Fatalf("after the disk came back: %+v", out)
			}
			if got := f.users(mirror1); got != "lost?,again" {
				t.Fatalf("the mirror holds %q: the failed turn was not kept", got)
			}
		})
	}
}

func TestATurnOfANewBoundSessionOnAFullDiskIsAToolError(t *testing.T) {
	f := newFixture(t, setup{})
	restore := failTemp(t, syscall.ENOSPC)
	f.notSaved(map[string]any{"prompt": "one", "session": "work"}, `session "work" on disk does not hold this turn`)
	restore()
	f.chat(map[string]any{"prompt": "two"})
	if got := f.users("work"); got != "one,two" {
		t.Fatalf("work holds %q", got)
	}
}

func TestATurnWhoseMirrorLockIsHeldIsAToolError(t *testing.T) {
	f := newFixture(t, setup{})
	f.srv.e.Store().SetLockTimeout(50 * time.Millisecond)
	path, err := f.store.LockPath(mirror1)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	lock := flock.New(path)
	if err := lock.Lock(); err != nil { // another process's write, stuck
		t.Fatal(err)
	}
	f.notSaved(map[string]any{"prompt": "locked"}, path)
	lock.Unlock()
	f.chat(map[string]any{"prompt": "free"})
	if got := f.users(mirror1); got != "locked,free" {
		t.Fatalf("the mirror holds %q", got)
	}
}

func TestATurnInAReadOnlyStoreFolderIsAToolError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders; the EROFS case covers this")
	}
	f := newFixture(t, setup{})
	for _, d := range []string{"sessions", "transcripts"} {
		dir := filepath.Join(f.home, d)
		os.MkdirAll(dir, 0o700)
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
	}
	f.notSaved(map[string]any{"prompt": "ro", "session": "ro"}, "permission denied")
}

// TestATurnUnderANameTheFileSystemRefusesIsAToolError uses names within
// 128 characters whose file name (".json" added) is over 255 bytes: either
// name validation refuses them or the write fails; never an acknowledged
// turn.
func TestATurnUnderANameTheFileSystemRefusesIsAToolError(t *testing.T) {
	f := newFixture(t, setup{})
	for _, name := range []string{strings.Repeat("é", 127), strings.Repeat("語", 85)} {
		res := f.call("chat", map[string]any{"prompt": "long", "session": name})
		if !res.IsError {
			t.Fatalf("a %d-byte name: acknowledged %q", len(name), text(res))
		}
		if !strings.Contains(text(res), name) && !strings.Contains(text(res), "file name too long") {
			t.Fatalf("a %d-byte name: %q names neither the name nor the rule", len(name), text(res))
		}
	}
	if f.names() != "" {
		t.Fatalf("sessions written: %q", f.names())
	}
}
