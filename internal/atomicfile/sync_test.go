package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failDirSync makes every folder fsync answer err until the test ends.
func failDirSync(t *testing.T, err error) {
	t.Helper()
	orig := DirSync
	t.Cleanup(func() { DirSync = orig })
	DirSync = func(*os.File) error { return err }
}

// resetWarnings forgets the process's warnings until the test ends.
func resetWarnings(t *testing.T) {
	t.Helper()
	clear := func() {
		warnings.mu.Lock()
		warnings.seen, warnings.delivered, warnings.fn, warnings.syncNoSup = nil, 0, nil, false
		warnings.mu.Unlock()
	}
	clear()
	t.Cleanup(clear)
}

// A change that landed but whose folder fsync failed says so: the error
// wraps ErrNotDurable and the cause, and the change is there. Nothing
// reports it as not written.
func TestLandedButNotDurable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := WriteFile(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	failDirSync(t, syscall.EIO)
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotDurable) || !errors.Is(err, syscall.EIO) {
			t.Fatalf("%s: %v, want ErrNotDurable wrapping EIO", what, err)
		}
	}
	check("WriteFile", WriteFile(p, []byte("new")))
	if data, _ := os.ReadFile(p); string(data) != "new" {
		t.Fatalf("WriteFile landed %q", data)
	}
	q := filepath.Join(dir, "g.json")
	check("CreateFile", CreateFile(q, []byte("created")))
	if data, _ := os.ReadFile(q); string(data) != "created" {
		t.Fatalf("CreateFile landed %q", data)
	}
	r := filepath.Join(dir, "h.json")
	check("Move", Move(q, r))
	if _, err := os.Stat(q); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Move left the source: %v", err)
	}
	check("Remove", Remove(r))
	check("SyncDir", SyncDir(dir))
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
}

// syncFile answers err from Sync.
type syncFile struct {
	*os.File
	err error
}

func (f syncFile) Sync() error { return f.err }

// File systems that cannot fsync (EINVAL, ENOTSUP) do not fail writes; the
// first such answer is the process's one warning, heard once by the
// WarnFunc whenever it is set.
func TestFsyncNotSupportedIsToleratedAndWarnedOnce(t *testing.T) {
	resetWarnings(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	orig := CreateTemp
	t.Cleanup(func() { CreateTemp = orig })
	CreateTemp = func(d, pat string) (TempFile, error) {
		f, err := os.CreateTemp(d, pat)
		return syncFile{f, syscall.ENOTSUP}, err
	}
	failDirSync(t, syscall.EINVAL)
	for i, data := range []string{"one", "two"} {
		if err := WriteFile(p, []byte(data)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if err := Move(p, filepath.Join(dir, "sub", "g.json")); err != nil {
		t.Fatal(err)
	}
	w := Warnings()
	if len(w) != 1 {
		t.Fatalf("warnings: %q, want one", w)
	}
	var heard []string
	SetWarnFunc(func(s string) { heard = append(heard, s) })
	if err := WriteFile(p, []byte("three")); err != nil {
		t.Fatal(err)
	}
	SetWarnFunc(func(s string) { heard = append(heard, s) })
	if len(heard) != 1 || heard[0] != w[0] {
		t.Fatalf("the WarnFunc heard %q, want %q once", heard, w)
	}
	// Other failures are not tolerated.
	failDirSync(t, syscall.EIO)
	if err := WriteFile(p, []byte("four")); !errors.Is(err, syscall.EIO) {
		t.Fatalf("EIO: %v", err)
	}
}

// SyncData syncs an appended file, and names the file when it fails (on
// a closed file, as on a failing disk).
func TestSyncDataNamesTheFileWhenItFails(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("an entry")); err != nil {
		t.Fatal(err)
	}
	if err := SyncData(f); err != nil {
		t.Fatalf("SyncData: %v", err)
	}
	f.Close()
	if err := SyncData(f); err == nil || !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EBADF) || !strings.Contains(err.Error(), "log") {
		t.Fatalf("SyncData of a closed file: %v, want an error naming it", err)
	}
}
