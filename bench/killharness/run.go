package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// runResult is what one chatcli process did.
type runResult struct {
	args   []string
	stdin  string
	stdout []byte
	stderr []byte
	// code is the exit status; -1 when a signal ended the process.
	code int
	// killed: the process died of the harness's SIGKILL (not merely
	// signalled after it had exited).
	killed bool
	// hung: the process outlived the run timeout and was killed for it.
	hung  bool
	delay time.Duration // the kill's delay after start; <0: no kill planned
	dur   time.Duration // start to wait's return
	err   error         // a failure to start
}

// ok reports whether the process exited 0.
func (r runResult) ok() bool { return r.err == nil && !r.killed && !r.hung && r.code == 0 }

// describe is a few lines for a violation's report.
func (r runResult) describe() string {
	var b strings.Builder
	b.WriteString("command: chatcli " + quoteArgs(r.args) + "\n")
	if r.stdin != "" {
		b.WriteString("stdin: " + clip(r.stdin, 2000) + "\n")
	}
	switch {
	case r.err != nil:
		b.WriteString("start failed: " + r.err.Error() + "\n")
	case r.hung:
		b.WriteString("hung: killed after the run timeout\n")
	case r.killed:
		b.WriteString("killed with SIGKILL after " + r.delay.String() + "\n")
	default:
		b.WriteString("exit status " + itoa(r.code) + " after " + r.dur.Round(time.Microsecond).String())
		if r.delay >= 0 {
			b.WriteString(" (a kill was planned at " + r.delay.String() + ")")
		}
		b.WriteString("\n")
	}
	b.WriteString("stdout:\n" + clip(string(r.stdout), 4000) + "\n")
	b.WriteString("stderr:\n" + clip(string(r.stderr), 4000) + "\n")
	return b.String()
}

// runChatcli starts bin with args, env and stdin and, when delay >= 0,
// sends it SIGKILL delay after the start. It waits for the process (at
// most timeout; past it the process is killed and reported hung).
func runChatcli(bin string, args []string, env []string, stdin string, delay, timeout time.Duration) runResult {
	r := runResult{args: args, stdin: stdin, delay: delay}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.err = err
		return r
	}
	var killT *time.Timer
	if delay >= 0 {
		killT = time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	hung := make(chan struct{})
	go func() {
		<-ctx.Done()
		if ctx.Err() == context.DeadlineExceeded {
			close(hung)
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}()
	cmd.Wait()
	r.dur = time.Since(start)
	cancel()
	if killT != nil {
		killT.Stop()
	}
	r.stdout, r.stderr = out.Bytes(), errb.Bytes()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	select {
	case <-hung:
		r.hung = true
	default:
	}
	switch {
	case ws.Signaled():
		r.code = -1
		r.killed = !r.hung && ws.Signal() == syscall.SIGKILL && delay >= 0
	default:
		r.code = ws.ExitStatus()
	}
	return r
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		a = clip(a, 80)
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// clip shortens s to n bytes, saying how much was left out.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…(" + itoa(len(s)-n) + " more bytes)"
}
