//go:build linux || darwin

package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// setAttr sets the extended attribute name of the open file f to value
// (fsetxattr(2)).
func setAttr(f *os.File, name string, value []byte) error {
	rc, err := f.SyscallConn() // not f.Fd(), which would clear O_NONBLOCK with one more system call
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fsetxattr(int(fd), name, value, 0) }); err != nil {
		return err
	}
	return serr
}

// getAttr reads the extended attribute name of the open file f into buf
// (fgetxattr(2)) and returns its length; ok is false when f has none, it
// is longer than buf, or the file system keeps none.
func getAttr(f *os.File, name string, buf []byte) (n int, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var gerr error
	if err := rc.Control(func(fd uintptr) { n, gerr = unix.Fgetxattr(int(fd), name, buf) }); err != nil {
		return 0, false
	}
	return n, gerr == nil
}
