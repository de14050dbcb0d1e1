package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// The system calls of publishing and moving, seams: tests answer as file
// systems without renameat2 or without hard links do, and record the
// order of the steps.
var (
	renameNoReplace = renameat2
	link            = os.Link
	unlink          = os.Remove
)

// Move gives the file at src the path dst, on the same file system, never
// replacing a file at dst. Missing folders of dst are created (mode 0700),
// each one's parent fsynced. Then the file is renamed (renameat2 with
// RENAME_NOREPLACE) and both folders are fsynced, or, where the file
// system has no renameat2, linked: fsync of dst's folder, unlink of src,
// fsync of src's folder. After a crash the file is at src, at dst, or at
// both. Errors, naming both paths: wrapping fs.ErrExist when dst exists
// and fs.ErrNotExist when src does not (nothing moved); wrapping
// ErrNotDurable (and the cause) when the file is at dst and gone from src
// but a folder's fsync failed; any other error means nothing moved.
func Move(src, dst string) error {
	srcDir, dstDir := filepath.Dir(src), filepath.Dir(dst)
	if err := mkdirAll(dstDir); err != nil {
		return fmt.Errorf("move %s to %s: %w", src, dst, err)
	}
	linked, err := publish(src, dst)
	if err != nil {
		return fmt.Errorf("move %s to %s: %w", src, dst, err)
	}
	if linked {
		return unlinkSource(src, dst)
	}
	err = syncDir(dstDir)
	if srcDir != dstDir {
		err = errors.Join(err, syncDir(srcDir))
	}
	return notDurable(dst, err)
}

// MoveData is Move for a file whose bytes change on the way (a file sealed
// for its name, say): dst is created with data as CreateFile creates it,
// then src is unlinked as Move unlinks it. The errors are Move's; dst
// existing (fs.ErrExist) leaves src as it was.
func MoveData(src, dst string, data []byte) error {
	return MoveWith(src, dst, bytesOf(data))
}

// MoveWith is MoveData for content written by write, in as many calls as
// it likes; an error of write creates nothing, leaves src as it was and is
// returned wrapped.
func MoveWith(src, dst string, write func(io.Writer) error) error {
	if err := mkdirAll(filepath.Dir(dst)); err != nil {
		return fmt.Errorf("move %s to %s: %w", src, dst, err)
	}
	if err := placeWith(dst, write); err != nil {
		return fmt.Errorf("move %s: %w", src, err)
	}
	return unlinkSource(src, dst)
}

// unlinkSource ends a move whose destination dst is a new link or a new
// file: dst's folder is fsynced, then src is unlinked and its folder
// fsynced. When the first fsync or the unlink fails, dst is removed again:
// nothing moved. A src that is gone already counts as unlinked.
func unlinkSource(src, dst string) error {
	err := syncDir(filepath.Dir(dst))
	if err == nil {
		if err = unlink(src); errors.Is(err, fs.ErrNotExist) {
			err = nil // removed meanwhile: dst is the only copy, keep it
		}
	}
	if err != nil {
		unlink(dst)
		return fmt.Errorf("move %s to %s: %w", src, dst, err)
	}
	return notDurable(dst, syncDir(filepath.Dir(src)))
}

// Remove unlinks path and fsyncs its folder. Errors: wrapping
// fs.ErrNotExist when there is no such file (nothing changed); wrapping
// ErrNotDurable when the file is gone but the fsync failed.
func Remove(path string) error {
	if err := unlink(path); err != nil {
		return err
	}
	return notDurable(path, syncDir(filepath.Dir(path)))
}

// publish gives the file at src the name dst too, never replacing a file
// at dst, and reports whether src still names it (linked) or not
// (renamed). It is the one place that chooses how: renameat2 with
// RENAME_NOREPLACE where the file system has it, link(2) where it answers
// EINVAL, ENOSYS or ENOTSUP. A file system without hard links (link
// answering EPERM or ENOTSUP) is served by the renameat2 tried first; with
// neither, the error names both answers.
func publish(src, dst string) (linked bool, err error) {
	rerr := renameNoReplace(src, dst)
	if rerr == nil || !unsupported(rerr) {
		return false, rerr
	}
	lerr := link(src, dst)
	switch {
	case lerr == nil:
		return true, nil
	case errors.Is(lerr, syscall.EPERM) || unsupported(lerr):
		return false, fmt.Errorf("%w (renameat2: %v)", lerr, rerr)
	}
	return false, lerr
}

// unsupported reports whether a system call answered that the file system
// does not do it: EINVAL, ENOSYS, ENOTSUP.
func unsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported)
}

// mkdirAll creates dir and its missing parents (mode 0700), fsyncing the
// folder that holds each one it created, so nothing later put in dir
// vanishes with it in a crash. An existing dir is nil.
func mkdirAll(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		_, err := os.Stat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create %s: %w", d, err)
		}
		if err := syncDir(filepath.Dir(d)); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	return nil
}
