//go:build !unix

package tools

import (
	"context"
	"io"
	"os/exec"
	"time"
)

// execute runs cmdline with sh -c in dir, its stdout and stderr both
// written to out, with no input; when ctx is done the shell is killed.
// Without Unix process groups, processes it started may outlive it.
func execute(ctx context.Context, dir, cmdline string, out io.Writer) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	return cmd.Run()
}
