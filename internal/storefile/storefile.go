package storefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// ErrNotRegular is wrapped by every error of this package about a path
// that holds something other than a regular file (a directory, FIFO,
// socket, device or symbolic link). Match it with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// notRegular is the error for path holding an entry of mode m: it wraps
// ErrNotRegular and says what the entry is.
func notRegular(path string, m fs.FileMode) error {
	return &fs.PathError{Op: "open", Path: path, Err: KindError(m)}
}

// KindError is the error, without a path, for an entry of mode m where a
// regular file belongs: "not a regular file (named pipe)", wrapping
// ErrNotRegular. It is what listings show next to an entry's name.
func KindError(m fs.FileMode) error { return fmt.Errorf("%w (%s)", ErrNotRegular, Kind(m)) }

// Kind names what an entry of mode m is, in the words of stat(2):
// "regular file", "directory", "symbolic link", "named pipe", "socket",
// "device" or "irregular file".
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "regular file"
	case t&fs.ModeDir != 0:
		return "directory"
	case t&fs.ModeSymlink != 0:
		return "symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	default:
		return "irregular file"
	}
}

// Open opens the regular file at path for reading. It returns the file
// and its fs.FileInfo (from fstat on the open file). Errors: one wrapping
// fs.ErrNotExist when nothing is there, one wrapping ErrNotRegular naming
// path and the entry's kind, or the open's *fs.PathError.
func Open(path string) (*os.File, fs.FileInfo, error) {
	return OpenFile(path, os.O_RDONLY, 0)
}

// OpenFile is os.OpenFile for store paths: flag (os.O_RDONLY, os.O_WRONLY,
// os.O_RDWR, with os.O_APPEND, os.O_CREATE, os.O_EXCL, os.O_TRUNC) and perm
// as there, plus O_NOFOLLOW, O_NONBLOCK and O_CLOEXEC; the opened file is
// returned only if fstat says it is regular, with that fs.FileInfo.
// os.O_TRUNC is applied after the check (a FIFO is never truncated
// through). Errors are Open's.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	trunc := flag&os.O_TRUNC != 0
	f, err := openNoFollow(path, flag&^os.O_TRUNC, perm)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, st.Mode())
	}
	if trunc {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, st, nil
}

// ReadFile reads the whole regular file at path, at most the size fstat
// reported when it was opened (a file growing meanwhile is read up to that
// size). Errors are Open's, or a read error naming path.
func ReadFile(path string) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, st.Size())
	n, err := io.ReadFull(f, data)
	if err == io.ErrUnexpectedEOF || err == io.EOF { // shrunk meanwhile
		err = nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data[:n], nil
}

// Reader returns a reader of f that stops after the size in st, the
// fs.FileInfo Open returned: a stream read of a store file is bounded by
// the size seen at its open.
func Reader(f *os.File, st fs.FileInfo) io.Reader { return io.LimitReader(f, st.Size()) }

// Lstat returns the fs.FileInfo of path itself (a link is not followed),
// or an error: one wrapping fs.ErrNotExist, or one wrapping ErrNotRegular
// naming path and its kind when it is not a regular file.
func Lstat(path string) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return fi, notRegular(path, fi.Mode())
	}
	return fi, nil
}

// Dir checks that path is a directory itself, not a link to one. Errors:
// one wrapping fs.ErrNotExist, or an *fs.PathError wrapping ErrNotRegular
// naming path and what is there instead.
func Dir(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %s, not a directory", ErrNotRegular, Kind(fi.Mode()))}
	}
	return nil
}

// NewLock returns the github.com/gofrs/flock lock on the file at path,
// opened with flag (os.O_CREATE|os.O_RDWR to create a lock file, mode
// 0600; os.O_RDONLY to lock an existing file) plus O_NOFOLLOW and
// O_NONBLOCK: a link planted at path makes the lock fail (ELOOP) instead
// of creating or locking a file outside the store, and a FIFO there never
// blocks the open. An entry at path that is not a regular file (a FIFO, a
// folder, a device, a link) is refused up front with Lstat's error wrapping
// ErrNotRegular: it is never locked, nor removed as a stale lock.
func NewLock(path string, flag int) (*flock.Flock, error) {
	if _, err := Lstat(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return flock.New(path, flock.SetFlag(flag|noFollowFlags), flock.SetPermissions(0o600)), nil
}
