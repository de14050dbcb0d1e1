//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtrlCStopsAOneShotTurnAsTheREPLDoes: Ctrl+C (SIGINT) while -p
// --session waits for the model ends the process with status 130 and the
// prompt kept in the session marked unanswered, so the next turn does not
// send it again (it was recorded as a prompt waiting for its reply, and
// sent with the next one, when the signal killed the process).
func TestCtrlCStopsAOneShotTurnAsTheREPLDoes(t *testing.T) {
	srv, arrived, release := gatedServer(t)
	defer close(release)
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=k", "OPENAI_MODEL=m"}
	cmd := exec.Command(binary, "-p", "interrupted prompt", "--session", "demo")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the request never arrived: %s", stderr.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitSignal {
		t.Fatalf("exit %v after Ctrl+C, want status %d:\n%s", err, exitSignal, stderr.String())
	}
	out, errOut, code := run(t, env, "", "session", "show", "demo")
	if code != 0 || !strings.Contains(out, "user (unanswered)\ninterrupted prompt") {
		t.Fatalf("exit %d, the prompt is not kept marked unanswered:\n%s%s", code, out, errOut)
	}
}
