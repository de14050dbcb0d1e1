package session

import (
	"os"
	"path/filepath"
)

// fileStamp is what the list index compares of a file: its size, mtime
// and, on Linux, inode and ctime (inodeChange), and whether it is a
// regular file.
type fileStamp struct {
	size, mtimeNanos int64
	ino              uint64
	ctimeNanos       int64
	regular          bool
}

// dirHandle stats the entries of one folder by name (openDir); fd is -1
// where it stats their paths.
type dirHandle struct {
	dir string
	fd  int
}

// pathStamp is stamp through the entry's path (lstat(2)).
func (d dirHandle) pathStamp(name string) (fileStamp, bool) {
	info, err := os.Lstat(filepath.Join(d.dir, name))
	if err != nil {
		return fileStamp{}, false
	}
	ino, ctime := inodeChange(info)
	return fileStamp{size: info.Size(), mtimeNanos: info.ModTime().UnixNano(), ino: ino, ctimeNanos: ctime,
		regular: info.Mode().IsRegular()}, true
}
