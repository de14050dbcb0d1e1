package tools

import (
	"context"
	"io"
)

// Execute runs cmdline with sh -c in dir as the run_command tool does
// (stdout and stderr both to out, no input, every process it started
// killed when ctx ends or the shell exits). It asks no permission: the
// caller has. The error is exec.Cmd.Wait's (an *exec.ExitError for a
// non-zero exit).
func Execute(ctx context.Context, dir, cmdline string, out io.Writer) error {
	return execute(ctx, dir, cmdline, out)
}
