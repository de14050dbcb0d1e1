package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// TempFile is the part of *os.File a durable write uses.
type TempFile interface {
	io.Writer
	Sync() error
	Close() error
	Name() string
}

// CreateTemp creates the temporary file (os.CreateTemp, mode 0600). It is a
// seam: tests replace it to inject write failures such as ENOSPC and check
// that the old file survives.
var CreateTemp = func(dir, pattern string) (TempFile, error) { return os.CreateTemp(dir, pattern) }

// TempPattern is the os.CreateTemp pattern of temporary files for final:
// hidden, so listings skip them, and recognisable, so a storage pass can
// find leftovers.
func TempPattern(final string) string { return "." + filepath.Base(final) + ".tmp-*" }

// bytesOf is the write function that writes data, checking its length.
func bytesOf(data []byte) func(io.Writer) error { return content(data).writeTo }

// content is the bytes a write function writes.
type content []byte

func (c content) writeTo(w io.Writer) error {
	n, err := w.Write(c)
	if err == nil && n != len(c) {
		err = io.ErrShortWrite
	}
	return err
}

// writeTempWith writes what write writes to a new temporary file in dir
// and syncs it; on any error the temporary file is removed. It returns the
// temporary file's path.
func writeTempWith(dir, final string, write func(io.Writer) error) (string, error) {
	f, err := CreateTemp(dir, TempPattern(final))
	if err != nil {
		return "", fmt.Errorf("create temporary file in %s: %w", dir, err)
	}
	name := f.Name()
	err = write(f)
	if err == nil {
		err = tolerate(name, f.Sync())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("write %s: %w", final, err)
	}
	return name, nil
}

// WriteFile replaces path with data durably: temporary file in the same
// folder, write, check length, fsync, close, rename over path, fsync the
// folder. An error before the rename removes the temporary file and leaves
// path untouched; after it, the error wraps ErrNotDurable (path holds
// data, but the folder's fsync failed).
func WriteFile(path string, data []byte) error {
	_, err := WriteFileStat(path, data)
	return err
}

// WriteFileStat is WriteFile that also returns the written file's
// FileInfo, taken from the temporary file before the rename (the same
// inode, size and modification time path then has): what path holds
// right after, even if another program replaces it a moment later. The
// FileInfo is nil when the write failed before the rename.
func WriteFileStat(path string, data []byte) (fs.FileInfo, error) {
	return WriteStatWith(path, bytesOf(data))
}

// WriteStatWith is WriteFileStat for content written by write, in as many
// calls as it likes (a stream sealed as it is encoded); an error of write
// leaves path untouched and is returned wrapped.
func WriteStatWith(path string, write func(io.Writer) error) (fs.FileInfo, error) {
	dir := filepath.Dir(path)
	tmp, err := writeTempWith(dir, path, write)
	if err != nil {
		return nil, err
	}
	info, err := os.Lstat(tmp)
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("replace %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("replace %s: %w", path, err)
	}
	return info, notDurable(path, syncDir(dir))
}

// WriteTemp is the first half of WriteFile: it writes data durably to a
// temporary file beside path (TempPattern: write, check length, fsync,
// close) and returns its path, for a caller that renames it over path at
// a moment of its choosing (os.Rename, then SyncDir of the folder). An
// error removes the temporary file.
func WriteTemp(path string, data []byte) (string, error) {
	return writeTempWith(filepath.Dir(path), path, bytesOf(data))
}

// CreateFile writes data to path only if path does not exist yet, durably:
// as WriteFile, publishing the temporary file without replacing a file
// (publish). Errors: one wrapping fs.ErrExist when path exists (nothing
// written); ErrNotDurable when path holds data but the folder's fsync
// failed.
func CreateFile(path string, data []byte) error { return CreateWith(path, bytesOf(data)) }

// CreateWith is CreateFile for content written by write, which may write
// in as many calls as it likes (a copy in bounded chunks); an error of
// write creates nothing and is returned wrapped.
func CreateWith(path string, write func(io.Writer) error) error {
	if err := placeWith(path, write); err != nil {
		return err
	}
	return notDurable(path, syncDir(filepath.Dir(path)))
}

// placeWith writes what write writes to a temporary file next to path and
// publishes it at path without replacing a file; the folder is not
// synced.
func placeWith(path string, write func(io.Writer) error) error {
	tmp, err := writeTempWith(filepath.Dir(path), path, write)
	if err != nil {
		return err
	}
	return publishNew(path, tmp)
}

// publishNew publishes the temporary file tmp at path without replacing a
// file, and removes tmp unless it became path.
func publishNew(path, tmp string) error {
	linked, err := publish(tmp, path)
	if err != nil || linked {
		os.Remove(tmp)
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}
