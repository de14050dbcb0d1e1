//go:build !linux

package atomicfile

import "os"

// fdatasync is fsync where fdatasync(2) is not used.
func fdatasync(f *os.File) error { return f.Sync() }
