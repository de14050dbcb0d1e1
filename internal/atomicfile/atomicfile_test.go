package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFileReplacesAndCreateFileNeverDoes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	if err := WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if err := CreateFile(p, []byte("three")); !errors.Is(err, os.ErrExist) {
		t.Fatalf("create over an existing file: %v", err)
	}
	data, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(data) != "two" || st.Mode().Perm() != 0o600 {
		t.Fatalf("%q %v", data, st.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// shortFile reports a short write without an error.
type shortFile struct{ *os.File }

func (f shortFile) Write(p []byte) (int, error) { return f.File.Write(p[:len(p)-1]) }

func TestFailedWritesLeaveTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	WriteFile(p, []byte("old"))
	orig := CreateTemp
	t.Cleanup(func() { CreateTemp = orig })
	for name, seam := range map[string]func(string, string) (TempFile, error){
		"short write": func(d, pat string) (TempFile, error) { f, err := os.CreateTemp(d, pat); return shortFile{f}, err },
		"no space":    func(string, string) (TempFile, error) { return nil, syscall.ENOSPC },
	} {
		CreateTemp = seam
		if err := WriteFile(p, []byte("new content")); err == nil {
			t.Fatalf("%s: no error", name)
		}
		if data, _ := os.ReadFile(p); string(data) != "old" {
			t.Fatalf("%s: old file changed to %q", name, data)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("%s: temporary file left: %v", name, entries)
		}
	}
}
