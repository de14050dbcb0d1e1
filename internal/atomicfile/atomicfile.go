// Package atomicfile replaces and creates files durably: temporary file in
// the same directory, write, length check, fsync, close, rename (or link,
// to create without replacing), fsync of the directory. On any error the
// temporary file is removed and the previous file is byte-identical.
// Temporary files are hidden: ".<name>.tmp-<random>".
package atomicfile

import (
	"errors"
	"fmt"
	"io"
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

// writeTemp writes data to a new temporary file in dir and syncs it; on any
// error the temporary file is removed. It returns the temporary file's path.
func writeTemp(dir, final string, data []byte) (string, error) {
	f, err := CreateTemp(dir, TempPattern(final))
	if err != nil {
		return "", fmt.Errorf("create temporary file in %s: %w", dir, err)
	}
	name := f.Name()
	n, err := f.Write(data)
	if err == nil && n != len(data) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = f.Sync()
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
// directory, write, check length, fsync, close, rename over path, fsync the
// directory. On any error the temporary file is removed and the previous
// content of path is untouched.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, path, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return SyncDir(dir)
}

// CreateFile writes data to path only if path does not exist yet, durably
// (like writeFile, publishing with link(2), which fails when the target
// exists). It returns an error wrapping os.ErrExist when path exists.
func CreateFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, path, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return err
		}
		return fmt.Errorf("create %s: %w", path, err)
	}
	return SyncDir(dir)
}

// SyncDir fsyncs a directory so a rename, link or removal in it is durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
