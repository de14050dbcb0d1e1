package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// renameat2 renames src to dst with RENAME_NOREPLACE: it fails with
// EEXIST when dst exists, and with EINVAL, ENOSYS or ENOTSUP where the
// kernel or the file system does not support it.
func renameat2(src, dst string) error {
	if err := unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dst, unix.RENAME_NOREPLACE); err != nil {
		return &os.LinkError{Op: "renameat2", Old: src, New: dst, Err: err}
	}
	return nil
}
