package session

import (
	"io/fs"
	"syscall"
)

// inodeChange returns the inode number and the status-change time (ctime,
// Unix nanoseconds) of info, a stat of a file; zeros when info does not
// carry them. Unlike the mtime, the ctime cannot be set back by a program:
// every write, truncation, rename onto the name or chmod moves it.
func inodeChange(info fs.FileInfo) (ino uint64, ctimeNanos int64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ino, st.Ctim.Nano()
}
