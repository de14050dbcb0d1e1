//go:build !linux

package session

import "io/fs"

// inodeChange gives no inode or ctime outside Linux (their stat fields are
// spelled differently on each system): the list index then tests size and
// mtime only.
func inodeChange(fs.FileInfo) (ino uint64, ctimeNanos int64) { return 0, 0 }

// openDir returns a handle on folder dir that stats the paths of its
// entries.
func openDir(dir string) dirHandle { return dirHandle{dir: dir, fd: -1} }

func (d dirHandle) close() {}

// stamp stats the entry name of the folder itself, not what a link there
// names (regular is false for a link, like storefile.Lstat's refusal); ok
// is false when it cannot be stat'ed.
func (d dirHandle) stamp(name string) (fileStamp, bool) {
	return d.pathStamp(name)
}
