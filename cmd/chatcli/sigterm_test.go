//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// sigtermWait is how long after SIGTERM every command must have exited.
const sigtermWait = 2 * time.Second

// TestSIGTERMStopsEveryCommandWithinTwoSeconds starts commands that wait
// on something no context ends (the session's and the journal's locks
// held by this process, stdin left open) and on a provider that never
// answers, sends SIGTERM once each is waiting, and wants each to exit
// within sigtermWait with the signal's status.
func TestSIGTERMStopsEveryCommandWithinTwoSeconds(t *testing.T) {
	env, home, id, _ := hostileStore(t)
	for _, p := range []string{filepath.Join(home, "sessions", ".demo.lock"), filepath.Join(home, "transcripts", id+".jsonl")} {
		l := flock.New(p)
		if ok, err := l.TryLock(); !ok || err != nil {
			t.Fatalf("lock %s: %v %v", p, ok, err)
		}
		t.Cleanup(func() { l.Unlock() })
	}
	srv, _, release := gatedServer(t)
	defer close(release)
	slow := append([]string{"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}, env...)
	cases := []struct {
		name string
		env  []string
		args []string
	}{
		{"-p on a locked session", env, []string{"-p", "waits", "--session", "demo"}},
		{"session fork of a locked session", env, []string{"session", "fork", "demo", "demo-2"}},
		{"mcp-server idle", env, []string{"mcp-server"}},
		{"acp idle", env, []string{"acp"}},
		{"REPL reading stdin", env, nil},
		{"-p waiting for the provider", slow, []string{"-p", "slow"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(binary, c.args...)
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, c.env...)
			stdin, err := cmd.StdinPipe() // left open: a server or REPL waits on it
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = io.Discard, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, cmd.Process.Pid) // waiting by now
			if cmd.ProcessState != nil {
				t.Fatalf("exited before the signal: %s", stderr.String())
			}
			start := time.Now()
			cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if took := time.Since(start); took > sigtermWait {
					t.Errorf("exited %v after SIGTERM, want within %v", took.Round(time.Millisecond), sigtermWait)
				}
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != exitSignal) {
					t.Errorf("exit %v after SIGTERM, want status %d or 0:\n%s", err, exitSignal, stderr.String())
				}
				if strings.Contains(stderr.String(), "panic:") {
					t.Errorf("panicked:\n%s", stderr.String())
				}
			case <-time.After(sigtermWait + time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running %v after SIGTERM:\n%s", sigtermWait+time.Second, stderr.String())
			}
		})
	}
}

// waitIdle waits until process pid is asleep and spends no CPU time over
// 200 ms (it waits on something), at least 700 ms after it started: a
// loaded machine may take longer than that to start it. Without /proc it
// only sleeps 700 ms.
func waitIdle(t *testing.T, pid int) {
	t.Helper()
	time.Sleep(700 * time.Millisecond)
	cpu := func() (string, bool) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return "", false
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])) // after the command name
		return f[11] + "+" + f[12], f[0] == "S"                        // utime+stime, asleep
	}
	last, _ := cpu()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		now, asleep := cpu()
		if now == "" || (asleep && now == last) {
			return
		}
		last = now
	}
}
