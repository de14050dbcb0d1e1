//go:build !unix

package session

import "os"

// openRead is os.Open where syscall.Open is not the Unix one.
func openRead(path string) (*os.File, error) { return os.Open(path) }
