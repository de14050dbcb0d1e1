package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNotDurable is wrapped, with the cause, when a change landed (readers
// see the new file, the new name, the removal) but an fsync that makes it
// survive a crash failed. The change is made: callers must not treat it as
// not written.
var ErrNotDurable = errors.New("atomicfile: written, but not known to be durable (an fsync failed; a crash may undo it)")

// DirSync fsyncs the open folder d. It is a seam: tests make it fail, as a
// failing disk (EIO) or a file system without folder fsync (EINVAL,
// ENOTSUP) does.
var DirSync = (*os.File).Sync

// SyncFile fsyncs f (an appended log, say). EINVAL and ENOTSUP, answered
// by file systems that cannot fsync, count as done, with the process's
// one warning (Warnings); any other failure is returned as is.
func SyncFile(f *os.File) error { return tolerate(f.Name(), f.Sync()) }

// SyncData is SyncFile for an append-only log: it makes f's data and its
// length durable but not its times (fdatasync(2) on Linux, fsync
// elsewhere), as write-ahead logs sync their appends (etcd's
// fileutil.Fdatasync, PostgreSQL's default wal_sync_method). EINVAL and
// ENOTSUP count as done, as for SyncFile.
func SyncData(f *os.File) error { return tolerate(f.Name(), fdatasync(f)) }

// SyncDir fsyncs folder dir so a rename, link or removal in it is durable.
// A failure wraps ErrNotDurable and the cause, naming dir: the change made
// in dir stands. EINVAL and ENOTSUP count as done, as for SyncFile.
func SyncDir(dir string) error { return notDurable(dir, syncDir(dir)) }

// SyncCreated fsyncs the folder of path, a file just created (empty), so
// its entry survives a crash before anything is written to it: an
// append-only log's first records, say. EINVAL and ENOTSUP count as done,
// as for SyncDir. Its error is the cause itself, naming the folder, not
// ErrNotDurable: the caller has written nothing yet, and writes nothing.
func SyncCreated(path string) error { return syncDir(filepath.Dir(path)) }

// syncDir is SyncDir returning the cause alone, for the steps of a move
// that are not made yet.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := tolerate(dir, DirSync(d)); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// notDurable wraps a failed fsync of a change to path that has landed:
// nil for nil.
func notDurable(path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s: %w", ErrNotDurable, path, err)
}

// tolerate returns the error of an fsync of path, except EINVAL and
// ENOTSUP (and ENOSYS), the answers of file systems that cannot fsync:
// those count as done, and the first of the process is a warning.
func tolerate(path string, err error) error {
	if err == nil || !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	warnSyncNotSupported(path, err)
	return nil
}
