package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// steps records the system calls of a move through the seams, folders
// named relative to root; rename answers what renameat2 answers
// (nil: the real one).
func steps(t *testing.T, root string, rename, linkErr error) *[]string {
	t.Helper()
	var got []string
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return r }
	oldR, oldL, oldU, oldS := renameNoReplace, link, unlink, DirSync
	t.Cleanup(func() { renameNoReplace, link, unlink, DirSync = oldR, oldL, oldU, oldS })
	renameNoReplace = func(src, dst string) error {
		if rename != nil {
			return &os.LinkError{Op: "renameat2", Old: src, New: dst, Err: rename}
		}
		got = append(got, "rename "+rel(src)+" "+rel(dst))
		return oldR(src, dst)
	}
	link = func(src, dst string) error {
		if linkErr != nil {
			return &os.LinkError{Op: "link", Old: src, New: dst, Err: linkErr}
		}
		got = append(got, "link "+rel(src)+" "+rel(dst))
		return oldL(src, dst)
	}
	unlink = func(p string) error { got = append(got, "unlink "+rel(p)); return oldU(p) }
	DirSync = func(d *os.File) error { got = append(got, "sync "+rel(d.Name())); return oldS(d) }
	return &got
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMoveNeverReplacesAndCreatesItsFolders(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "a"), filepath.Join(root, "b")
	write(t, src, "moved")
	write(t, dst, "kept")
	if err := Move(src, dst); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("move over a file: %v", err)
	}
	if err := Move(filepath.Join(root, "none"), filepath.Join(root, "c")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("move of no file: %v", err)
	}
	if data, _ := os.ReadFile(dst); string(data) != "kept" {
		t.Fatalf("dst replaced by %q", data)
	}
	got := steps(t, root, nil, nil)
	deep := filepath.Join(root, "x", "y", "a")
	if err := Move(src, deep); err != nil {
		t.Fatal(err)
	}
	want := "sync . | sync x | rename a x/y/a | sync x/y | sync ."
	if strings.Join(*got, " | ") != want {
		t.Fatalf("steps %q\nwant  %q", strings.Join(*got, " | "), want)
	}
	if st, _ := os.Stat(filepath.Join(root, "x", "y")); st.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v", st.Mode())
	}
	if data, _ := os.ReadFile(deep); string(data) != "moved" {
		t.Fatalf("moved %q", data)
	}
}

// Where renameat2 is not supported, a move is link, fsync of the
// destination folder, unlink, fsync of the source folder, in that order.
func TestMoveFallsBackToLinkWithoutRenameat2(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EINVAL, syscall.ENOSYS, syscall.ENOTSUP} {
		t.Run(errno.Error(), func(t *testing.T) {
			root := t.TempDir()
			os.Mkdir(filepath.Join(root, "trash"), 0o700)
			src, dst := filepath.Join(root, "a"), filepath.Join(root, "trash", "a")
			write(t, src, "x")
			got := steps(t, root, errno, nil)
			if err := Move(src, dst); err != nil {
				t.Fatal(err)
			}
			if want := "link a trash/a | sync trash | unlink a | sync ."; strings.Join(*got, " | ") != want {
				t.Fatalf("steps %q, want %q", strings.Join(*got, " | "), want)
			}
			if _, err := os.Stat(src); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("source left")
			}
			write(t, src, "y")
			if err := Move(src, dst); !errors.Is(err, fs.ErrExist) {
				t.Fatalf("linked move over a file: %v", err)
			}
		})
	}
}

// On a file system without hard links (link answers EPERM or ENOTSUP),
// moves and exclusive creations go through renameat2; with neither they
// fail and change nothing.
func TestNoHardLinks(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EPERM, syscall.ENOTSUP} {
		t.Run(errno.Error(), func(t *testing.T) {
			root := t.TempDir()
			src, dst := filepath.Join(root, "a"), filepath.Join(root, "b")
			write(t, src, "x")
			steps(t, root, nil, errno)
			if err := Move(src, dst); err != nil {
				t.Fatalf("Move: %v", err)
			}
			if err := CreateFile(filepath.Join(root, "c"), []byte("c")); err != nil {
				t.Fatalf("CreateFile: %v", err)
			}
			if err := CreateFile(dst, []byte("c")); !errors.Is(err, fs.ErrExist) {
				t.Fatalf("CreateFile over a file: %v", err)
			}
			steps(t, root, syscall.ENOSYS, errno)
			err := Move(dst, src)
			if !errors.Is(err, errno) || !strings.Contains(err.Error(), "renameat2") {
				t.Fatalf("neither renameat2 nor link: %v", err)
			}
			if entries, _ := os.ReadDir(root); len(entries) != 2 {
				t.Fatalf("files: %v", entries)
			}
		})
	}
}

// A linked move whose destination folder does not sync, or whose source
// cannot be unlinked, takes the new link back: nothing moved, no error
// says otherwise.
func TestLinkedMoveThatCannotFinishMovesNothing(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "a"), filepath.Join(root, "b")
	write(t, src, "x")
	steps(t, root, syscall.ENOSYS, nil)
	DirSync = func(*os.File) error { return syscall.EIO }
	err := Move(src, dst)
	if err == nil || errors.Is(err, ErrNotDurable) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("Move: %v, want EIO and not ErrNotDurable", err)
	}
	if _, err := os.Stat(dst); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the destination link was left")
	}
	if data, _ := os.ReadFile(src); string(data) != "x" {
		t.Fatal("the source changed")
	}
}

func TestMoveDataRewritesOnTheWay(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "a"), filepath.Join(root, "b")
	write(t, src, "old")
	write(t, dst, "kept")
	if err := MoveData(src, dst, []byte("new")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("over a file: %v", err)
	}
	os.Remove(dst)
	got := steps(t, root, nil, nil)
	if err := MoveData(src, dst, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(*got, " | "); !strings.HasSuffix(s, " b | sync . | unlink a | sync .") {
		t.Fatalf("steps %q", s)
	}
	data, _ := os.ReadFile(dst)
	if entries, _ := os.ReadDir(root); string(data) != "new" || len(entries) != 1 {
		t.Fatalf("%q %v", data, entries)
	}
}

// A write function that fails leaves everything as it was: no
// destination, no temporary file, the source and the old file intact.
func TestStreamedWritesThatFailLeaveNothing(t *testing.T) {
	root := t.TempDir()
	src, dst, old := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	write(t, src, "src")
	write(t, old, "old")
	boom := errors.New("boom")
	half := func(w io.Writer) error { w.Write([]byte("partial")); return boom }
	if err := MoveWith(src, dst, half); !errors.Is(err, boom) {
		t.Fatalf("MoveWith: %v", err)
	}
	if _, err := WriteStatWith(old, half); !errors.Is(err, boom) {
		t.Fatalf("WriteStatWith: %v", err)
	}
	a, _ := os.ReadFile(src)
	c, _ := os.ReadFile(old)
	if entries, _ := os.ReadDir(root); string(a) != "src" || string(c) != "old" || len(entries) != 2 {
		t.Fatalf("%q %q %v", a, c, entries)
	}
	info, err := WriteStatWith(old, func(w io.Writer) error { w.Write([]byte("ne")); _, err := w.Write([]byte("w")); return err })
	if c, _ := os.ReadFile(old); err != nil || string(c) != "new" || info.Size() != 3 {
		t.Fatalf("WriteStatWith: %q %v", c, err)
	}
}
