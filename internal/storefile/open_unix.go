//go:build unix

package storefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

const noFollowFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// openNoFollow opens path with flag and perm plus noFollowFlags. When
// the open fails and path holds something other than a regular file (a
// link fails with ELOOP, a FIFO opened for writing with ENXIO, a folder
// with EISDIR), the error is the ErrNotRegular one saying what is there.
func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|noFollowFlags, perm)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, notRegular(path, fi.Mode())
		}
	}
	return f, err
}
