//go:build !unix

package storefile

import (
	"errors"
	"io/fs"
	"os"
)

const noFollowFlags = 0

// openNoFollow checks path with Lstat, then opens it with flag and perm:
// a link or special file found there is refused before the open.
func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err == nil && !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return os.OpenFile(path, flag, perm)
}
