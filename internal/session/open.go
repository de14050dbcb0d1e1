package session

import (
	"os"

	"github.com/chatcli/chatcli/internal/storefile"
)

// openRead opens the regular file at path for reading, never through a
// link and never blocking on a FIFO (storefile.Open). Errors: one wrapping
// fs.ErrNotExist, one wrapping storefile.ErrNotRegular naming path, or
// the open's.
func openRead(path string) (*os.File, error) {
	f, _, err := storefile.Open(path)
	return f, err
}
