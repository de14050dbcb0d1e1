// Package storefile opens the files of chatcli's store (everything under
// CHATCLI_HOME: sessions/*.json, transcripts/<id>.jsonl, locks, open
// markers, trash/, checkpoints/, the typed-input history) the one way the
// store allows:
//
//   - never through a symbolic link: the last path element is opened with
//     O_NOFOLLOW, so a link planted at a store path (to /dev/zero, to a
//     file outside the store, to itself) is refused, never read, written,
//     created or locked through;
//   - never blocking: the open uses O_NONBLOCK, so a FIFO or a device at a
//     store path cannot stop the process in open(2);
//   - only a regular file: the open file is fstat-checked before anything
//     is read from or written to it, and a directory, FIFO, socket or
//     device is refused with an error wrapping ErrNotRegular that names the
//     path and says what is there ("named pipe", "symbolic link", …);
//   - reads bounded by the size fstat reported (ReadFile, Reader), so a file
//     that grows while it is read, or lies about its size, cannot make a
//     read run without end.
//
// Dir checks a store folder the same way before its entries are listed or
// removed (a symlinked trash/ is never emptied through). Kind names what a
// directory entry is, for listings that show non-regular entries instead
// of opening them.
//
// Where the system has no O_NOFOLLOW (not Unix), the path is Lstat-checked
// before the open instead, which leaves a race a Unix build does not have.
package storefile
