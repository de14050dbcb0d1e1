//go:build unix

package tools

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// drainDelay is how long output is still read after the shell exited and
// its process group was killed, for a process that left the group (setsid)
// and keeps the output pipe open.
const drainDelay = 2 * time.Second

// execute runs cmdline with sh -c in dir, its stdout and stderr both
// written to out, with no input. The shell leads a new process group; when
// ctx is done, and again when the shell exits, the whole group is killed
// with SIGKILL, so no process the command started outlives it. It returns
// the error of exec.Cmd.Wait (an *exec.ExitError for a non-zero exit).
func execute(ctx context.Context, dir, cmdline string, out io.Writer) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = w, w // an *os.File: the child writes to it directly
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	err = cmd.Start()
	w.Close()
	if err != nil {
		return err
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(out, r)
		close(copied)
	}()
	err = cmd.Wait()
	killGroup(cmd.Process.Pid)
	select {
	case <-copied:
	case <-time.After(drainDelay):
		r.SetReadDeadline(time.Now())
		<-copied
	}
	return err
}

// killGroup sends SIGKILL to the process group led by pid.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}
