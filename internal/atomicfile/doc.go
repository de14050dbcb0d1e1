// Package atomicfile changes files so that a crash leaves the old state or
// the new one, never a mix, and says when a change landed without being
// known to be durable.
//
// # Whole-file writes
//
// WriteFile and CreateFile write a hidden temporary file in the target's
// folder (".<name>.tmp-<random>", TempPattern), check its length, fsync
// and close it, then publish it: WriteFile renames it over the target;
// CreateFile gives it the target's name without ever replacing a file (see
// Publishing; an existing target fails with an error wrapping fs.ErrExist).
// The folder is fsynced last. An error before the publish removes the
// temporary file and leaves the previous file byte-identical.
//
// # Moves
//
// Move gives a file another path on the same file system, maybe in
// another folder, never replacing a file there (fs.ErrExist). The
// destination's missing folders are created first (mode 0700), and the
// folder holding each one created is fsynced. Then the file is published
// at the destination (see Publishing): when it was renamed, both folders
// are fsynced; when it was linked, the sequence is link → fsync of the
// destination folder → unlink of the source → fsync of the source folder.
// A failed fsync of the destination folder, or a failed unlink, removes
// the new link again: nothing moved. After a crash the file is at one path
// or both, never at neither. MoveData is Move for a file whose bytes
// change on the way (CreateFile at the destination, then the unlink);
// MoveWith, like WriteStatWith and CreateWith, takes the bytes from a
// function that writes them, as they are made (a stream sealed as it is
// encoded).
// Remove unlinks a file and fsyncs its folder.
//
// # Publishing
//
// One function gives a file a second name without replacing one:
// renameat2(2) with RENAME_NOREPLACE, atomic and without a second link;
// where the file system answers EINVAL, ENOSYS or ENOTSUP (older kernels,
// some network and FUSE file systems; every system but Linux) it falls
// back to link(2). File systems without hard links (link answers EPERM or
// ENOTSUP) are served by the renameat2 tried first; one with neither fails,
// naming both answers.
//
// # Durability and its errors
//
// Once a change is visible (renamed, linked or unlinked), a failed fsync
// does not undo it: the error wraps ErrNotDurable and the cause (match
// both with errors.Is). The caller treats the change as made (the data is
// there) and may say that a crash could undo it. Any other error means
// nothing changed. SyncCreated, for a file just created empty (a log's
// first append), returns the cause alone: its caller writes nothing when
// it fails.
//
// fsync answering EINVAL or ENOTSUP (file systems that cannot fsync: some
// FUSE, SMB and 9p mounts) counts as done. The first such answer in a
// process is a warning (Warnings, SetWarnFunc); later ones are silent.
package atomicfile
