package repl

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestLoneEsc(t *testing.T) {
	for in, want := range map[string]bool{"\x1b": true, "a\x1b": true, "\x1b[A": false, "\x1bOP": false, "\x1b\x1b": true, "abc": false, "\x1b[A\x1b": true,
		"\x1b\r": false, "\x1b\n": false, "\x1bb": false, "\x1b]11;rgb:0000/0000/0000\x1b\\": false} {
		if got := loneEsc([]byte(in)); got != want {
			t.Errorf("%q: %v", in, got)
		}
	}
}

// openPTY opens a pseudo-terminal pair through /dev/ptmx (the Linux
// interface of posix_openpt, unlockpt and ptsname).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

func canonical(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ICANON != 0
}

// TestPauseKeysGivesTheTerminalBackForAQuestion: while a permission
// question is open the terminal is canonical again and the answer is not
// taken for Esc; after it, Esc cancels the turn as before.
func TestPauseKeysGivesTheTerminalBackForAQuestion(t *testing.T) {
	master, slave := openPTY(t)
	ctx, stop := EscCancels(slave, nil)(context.Background())
	if canonical(t, slave) {
		t.Fatal("the watch did not switch the terminal to non-canonical mode")
	}
	resume := PauseKeys(ctx)
	if !canonical(t, slave) {
		t.Fatal("paused, the terminal must be canonical for the question")
	}
	master.Write([]byte("y\x1b\n")) // the answer, with a stray Esc in it
	buf := make([]byte, 16)
	n, err := slave.Read(buf)
	if err != nil || !strings.HasPrefix(string(buf[:n]), "y") {
		t.Fatalf("answer read %q, %v", buf[:n], err)
	}
	if ctx.Err() != nil {
		t.Fatal("keys typed while paused cancelled the turn")
	}
	resume()
	if canonical(t, slave) {
		t.Fatal("resumed, the watch must be back")
	}
	master.Write([]byte("\x1b"))
	select {
	case <-ctx.Done():
	case <-time.After(3 * time.Second):
		t.Fatal("Esc after the question did not cancel")
	}
	stop()
	if !canonical(t, slave) {
		t.Fatal("the terminal was not restored")
	}
}

// TestEscCancelsKeepsWhatWasTyped: the keys read while the watch runs are
// handed on when it stops (by the end of the command or by a question), so
// the next prompt gets them; the Esc that cancelled is among them for the
// editor to drop.
func TestEscCancelsKeepsWhatWasTyped(t *testing.T) {
	master, slave := openPTY(t)
	var kept []string
	ctx, stop := EscCancels(slave, func(b []byte) { kept = append(kept, string(b)) })(context.Background())
	master.Write([]byte("next prompt\r"))
	time.Sleep(200 * time.Millisecond) // read by the watch
	resume := PauseKeys(ctx)
	if len(kept) != 1 || kept[0] != "next prompt\n" { // ICRNL still maps Enter
		t.Fatalf("kept %q at the pause", kept)
	}
	resume()
	master.Write([]byte("more\x1b"))
	select {
	case <-ctx.Done():
	case <-time.After(3 * time.Second):
		t.Fatal("Esc did not cancel")
	}
	stop()
	if len(kept) != 2 || kept[1] != "more\x1b" {
		t.Fatalf("kept %q at the end", kept)
	}
}
