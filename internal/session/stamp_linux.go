package session

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
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

// openDir returns a handle on folder dir whose stamps are taken through a
// descriptor of the folder (fstatat), so that no path is built and walked
// for each of a listing's thousands of entries. A folder that cannot be
// opened gives a handle that stats paths.
func openDir(dir string) dirHandle {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	return dirHandle{dir: dir, fd: fd}
}

func (d dirHandle) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
	}
}

// stamp stats the entry name of the folder itself, not what a link there
// names (regular is false for a link, like storefile.Lstat's refusal); ok
// is false when it cannot be stat'ed.
func (d dirHandle) stamp(name string) (fileStamp, bool) {
	if d.fd < 0 {
		return d.pathStamp(name)
	}
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return fileStamp{}, false
	}
	return fileStamp{size: st.Size, mtimeNanos: st.Mtim.Nano(), ino: st.Ino, ctimeNanos: st.Ctim.Nano(),
		regular: st.Mode&unix.S_IFMT == unix.S_IFREG}, true
}
