package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// A store on a file system that cannot fsync (EINVAL, ENOTSUP) works, and
// the process says so once on stderr, however many writes meet it.
func TestFsyncNotSupportedIsPrintedOnce(t *testing.T) {
	var errb bytes.Buffer
	printWarnings(&factory{streams: &ioStreams{Err: &errb}, getenv: func(string) string { return "" }})
	orig := atomicfile.DirSync
	t.Cleanup(func() { atomicfile.DirSync = orig; atomicfile.SetWarnFunc(nil) })
	atomicfile.DirSync = func(*os.File) error { return syscall.EINVAL }
	p := filepath.Join(t.TempDir(), "f.json")
	for range 3 {
		if err := atomicfile.WriteFile(p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(errb.String(), "warning: fsync is not supported on "); n != 1 {
		t.Fatalf("stderr:\n%s\nwant the fsync warning once", errb.String())
	}
}
