package index

import "os"

// SetWriteLogAt makes the log's appends go through fn (a full disk, say)
// until the returned function is called.
func SetWriteLogAt(fn func(f *os.File, b []byte, off int64) (int, error)) (restore func()) {
	old := writeLogAt
	writeLogAt = fn
	return func() { writeLogAt = old }
}

// SetLogMaxEntries makes the log fold once it holds n entries until the
// returned function is called.
func SetLogMaxEntries(n int) (restore func()) {
	old := logMaxEntries
	logMaxEntries = n
	return func() { logMaxEntries = old }
}
