package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/message"
)

func TestRunCommandResults(t *testing.T) {
	cases := []struct {
		name    string
		command string
		isErr   bool
		want    []string
	}{
		{"success", "echo hello", false, []string{"hello\n", "[exit status 0]"}},
		{"stderr and non-zero exit", "echo out; echo err >&2; exit 3", true, []string{"out\n", "err\n", "error: exit status 3"}},
		{"no output", "true", false, []string{"[no output]", "[exit status 0]"}},
		{"no input", "cat; echo done", false, []string{"done"}},
		{"missing program", "no-such-program-here", true, []string{"not found", "exit status 127"}},
		{"syntax error", "if then", true, []string{"exit status 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, isErr := run(t, autoBox(t), "run_command", map[string]any{"command": c.command})
			if isErr != c.isErr {
				t.Fatalf("isError %v: %q", isErr, got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Fatalf("%q lacks %q", got, w)
				}
			}
		})
	}
}

func TestRunCommandRunsInTheWorkspace(t *testing.T) {
	b := autoBox(t)
	got, isErr := run(t, b, "run_command", map[string]any{"command": "pwd; echo x > made.txt"})
	if isErr || !strings.HasPrefix(got, b.realRoot+"\n") {
		t.Fatalf("%q", got)
	}
	if readString(t, filepath.Join(b.Root(), "made.txt")) != "x\n" {
		t.Fatal("not run in the root")
	}
}

// gone waits up to 2 s for process pid to be gone or a zombie.
func gone(t *testing.T, pid int) bool {
	t.Helper()
	for range 100 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func bgPid(t *testing.T, dir string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(readString(t, filepath.Join(dir, "bg.pid"))))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRunCommandTimeoutKillsTheProcessGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	b := autoBox(t)
	start := time.Now()
	got, isErr := run(t, b, "run_command", map[string]any{
		"command": "sleep 30 & echo $! > bg.pid; echo started; sleep 10", "timeout_seconds": 0.2})
	if took := time.Since(start); took > 5*time.Second { // not the 10 s sleep
		t.Fatalf("took %v", took)
	}
	if !isErr || !strings.Contains(got, "timed out after 200ms") || !strings.Contains(got, "started") {
		t.Fatalf("%v %q", isErr, got)
	}
	if pid := bgPid(t, b.Root()); !gone(t, pid) {
		t.Fatalf("background process %d survived the timeout", pid)
	}
}

func TestRunCommandKillsWhatItLeavesBehind(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	b := autoBox(t)
	start := time.Now()
	got, isErr := run(t, b, "run_command", map[string]any{"command": "sleep 30 & echo $! > bg.pid; echo started"})
	if took := time.Since(start); took > 5*time.Second { // not the 30 s sleep
		t.Fatalf("waited %v for a background process", took)
	}
	if isErr || !strings.Contains(got, "started") {
		t.Fatalf("%v %q", isErr, got)
	}
	if pid := bgPid(t, b.Root()); !gone(t, pid) {
		t.Fatalf("background process %d survived", pid)
	}
}

func TestRunCommandCancel(t *testing.T) {
	b := autoBox(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	got, isErr := b.Run(ctx, ModeAgent, message.ToolCall{Name: "run_command", Arguments: `{"command":"sleep 10"}`})
	if time.Since(start) > 5*time.Second || !isErr || !strings.Contains(got, "cancelled") { // not the 10 s sleep
		t.Fatalf("%v %q", isErr, got)
	}
}

func TestRunCommandOutputCap(t *testing.T) {
	b := newBox(t, Options{AutoExec: true, OutputCap: 1000})
	got, isErr := run(t, b, "run_command", map[string]any{
		"command": "echo FIRST; i=0; while [ $i -lt 3000 ]; do echo '日本語👨‍👩‍👧‍👦テキスト'; i=$((i+1)); done; echo LAST; exit 1"})
	if !isErr || !utf8.ValidString(got) || !strings.HasPrefix(got, "FIRST\n") ||
		!strings.Contains(got, "bytes cut …]") || !strings.HasSuffix(got, "LAST\n\nerror: exit status 1") {
		t.Fatalf("%v %q", isErr, got)
	}
	if len(got) > 1100 {
		t.Fatalf("%d bytes kept", len(got))
	}
}

func TestRunCommandTimeoutArgument(t *testing.T) {
	b := newBox(t, Options{AutoExec: true, CommandTimeout: 150 * time.Millisecond})
	got, isErr := run(t, b, "run_command", map[string]any{"command": "sleep 5"})
	if !isErr || !strings.Contains(got, "timed out after 150ms") {
		t.Fatalf("default timeout: %q", got)
	}
	for _, bad := range []any{0, -1} {
		got, isErr := run(t, b, "run_command", map[string]any{"command": "true", "timeout_seconds": bad})
		if !isErr || !strings.Contains(got, "must be more than 0") {
			t.Fatalf("timeout %v: %q", bad, got)
		}
	}
	if got, isErr := run(t, b, "run_command", map[string]any{"command": "  "}); !isErr || !strings.Contains(got, "needs a command") {
		t.Fatalf("empty command: %q", got)
	}
}
