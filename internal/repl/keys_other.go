//go:build !linux

package repl

import (
	"context"
	"os"
)

// EscCancels is a no-op outside Linux: Ctrl+C still cancels.
func EscCancels(*os.File, func([]byte)) func(context.Context) (context.Context, func()) {
	return func(ctx context.Context) (context.Context, func()) { return ctx, func() {} }
}

// PauseKeys does nothing outside Linux, where no keys are watched.
func PauseKeys(context.Context) (resume func()) { return func() {} }
