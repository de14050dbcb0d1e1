package conversation

import (
	"errors"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// landed returns nil, after a notice, for the error of a store write that
// landed but whose folder fsync failed (atomicfile.ErrNotDurable): the
// data is there, and taking it for a failed write would write it again
// (a turn merged in twice, a second autosave). Any other error is
// returned as it is.
func (e *Engine) landed(err error) error {
	if err == nil || !errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	e.notifyf("%v; it counts as written", err)
	return nil
}
