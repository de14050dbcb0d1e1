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

// WaitMerges waits for the merge running in the background, if any.
func (ix *Index) WaitMerges() { ix.jobs.Wait() }

// SetMergeStarts makes every merge in the background call fn as it
// starts until the returned function is called.
func SetMergeStarts(fn func()) (restore func()) {
	old := mergeStarts
	mergeStarts = fn
	return func() { mergeStarts = old }
}
