package tools

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// maxCommandTimeout bounds the timeout_seconds a call may ask for.
const maxCommandTimeout = 24 * time.Hour

type runArgs struct {
	Command        string   `json:"command"`
	TimeoutSeconds *float64 `json:"timeout_seconds"`
}

func (b *Box) runCommand(ctx context.Context, raw []byte) (string, error) {
	var a runArgs
	if err := decode("run_command", raw, &a); err != nil {
		return "", err
	}
	if strings.TrimSpace(a.Command) == "" {
		return "", errors.New("run_command needs a command")
	}
	timeout := b.timeout
	if a.TimeoutSeconds != nil {
		s := *a.TimeoutSeconds
		if !(s > 0) {
			return "", fmt.Errorf("timeout_seconds %v: must be more than 0", s)
		}
		timeout = min(time.Duration(s*float64(time.Second)), maxCommandTimeout)
	}
	act := Action{Tool: "run_command", Command: a.Command, Summary: "run: " + message.Clip(a.Command, 200)}
	if err := b.permit(ctx, act); err != nil {
		return "", err
	}
	if h := b.opts.Hooks.Command; h != nil {
		h(a.Command)
	}
	out := &capture{capBytes: b.capBytes}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	err := execute(cctx, b.realRoot, a.Command, out)
	took := time.Since(start).Round(time.Millisecond)
	text := out.String()
	if out.total == 0 {
		text = "[no output]"
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return text, fmt.Errorf("cancelled after %v; the command and the processes it started were killed", took)
	case cctx.Err() != nil:
		return text, fmt.Errorf("timed out after %v; the command and the processes it started were killed (raise timeout_seconds if it needs longer)", timeout)
	case err == nil:
		return text + "\n[exit status 0]", nil
	case errors.As(err, &exit):
		return text, fmt.Errorf("exit status %d", exit.ExitCode())
	}
	return text, fmt.Errorf("could not run the command: %v", err)
}
