package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// replProc is a REPL on pipes: prompts are sent one at a time and each
// reply waited for.
type replProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

func startREPL(t *testing.T, env []string, args ...string) *replProc {
	t.Helper()
	p := &replProc{cmd: exec.Command(binary, args...), lines: make(chan string, 1000)}
	p.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p.cmd.Stdout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// say sends line and waits for an output line containing want.
func (p *replProc) say(t *testing.T, line, want string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("the REPL ended before %q", want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q within 20 s", want)
		}
	}
}

// exit closes the REPL's input and returns the rest of its output.
func (p *replProc) exit(t *testing.T) string {
	t.Helper()
	p.stdin.Close()
	var rest []string
	for l := range p.lines {
		rest = append(rest, l)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("REPL exit: %v\n%s", err, strings.Join(rest, "\n"))
	}
	return strings.Join(rest, "\n")
}

func TestWriteThroughOffKeepsTheTurnsOutOfTheSessionUntilExit(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "zero\n/session save s\n"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	off := append([]string{"CHATCLI_SESSION_WRITETHROUGH=false"}, env...)
	if out, _, _ := run(t, off, "/config session\n"); !strings.Contains(out, "CHATCLI_SESSION_WRITETHROUGH") || !strings.Contains(out, "off") {
		t.Fatalf("/config session does not show the switch:\n%s", out)
	}
	// Alone: nothing reaches the session before exit, everything at exit.
	repl := startREPL(t, off, "--resume", "s")
	repl.say(t, "one", "reply #2 to: one")
	if show, _, _ := run(t, env, "", "session", "show", "s"); strings.Contains(show, "one") {
		t.Fatalf("the session took a turn with write-through off:\n%s", show)
	}
	repl.exit(t)
	if show, _, _ := run(t, env, "", "session", "show", "s"); !strings.Contains(show, "\none\n") {
		t.Fatalf("the turn is not in the session after exit:\n%s", show)
	}
	// With another window's turn meanwhile: neither takes the other's, and
	// at exit this window's conversation is kept as a conflict fork.
	repl = startREPL(t, off, "--resume", "s")
	repl.say(t, "two", "reply #3 to: two")
	if out, errOut, code := run(t, env, "", "-p", "elsewhere", "--session", "s"); code != 0 || strings.Contains(out, "two") {
		t.Fatalf("-p on s: exit %d\n%s\n%s", code, out, errOut)
	}
	repl.say(t, "three", "reply #4 to: three") // its 4th reply: "elsewhere" was not adopted
	rest := repl.exit(t)
	if !strings.Contains(rest, "s.conflict-") {
		t.Fatalf("the conflict fork is not announced:\n%s", rest)
	}
	show, _, _ := run(t, env, "", "session", "show", "s")
	if !strings.Contains(show, "elsewhere") || strings.Contains(show, "three") {
		t.Fatalf("s must be as the other window left it:\n%s", show)
	}
	var fork string
	for _, l := range listed(t, env) {
		if strings.HasPrefix(l.Name, "s.conflict-") {
			fork = l.Name
		}
	}
	if show, _, _ := run(t, env, "", "session", "show", fork); !strings.Contains(show, "three") || strings.Contains(show, "elsewhere") {
		t.Fatalf("the fork %q must hold this window's conversation:\n%s", fork, show)
	}
}
