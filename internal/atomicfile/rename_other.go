//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// renameat2 is Linux's; elsewhere it is unsupported, so publish links.
func renameat2(src, dst string) error {
	return &os.LinkError{Op: "renameat2", Old: src, New: dst, Err: errors.ErrUnsupported}
}
