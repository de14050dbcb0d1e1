package repl

import (
	"context"
	"os"

	"github.com/muesli/cancelreader"
	"golang.org/x/sys/unix"
)

// EscCancels returns a function that runs a command so that pressing Esc
// cancels it: while the command runs, the terminal on in is switched to
// non-canonical mode without echo (output processing and Ctrl+C signals are
// unchanged) and its keys are read; Esc cancels the context. The stop
// function restores the terminal and stops reading. Keys other than Esc
// typed meanwhile are discarded. When in is not a terminal, contexts are
// returned unchanged.
func EscCancels(in *os.File) func(context.Context) (context.Context, func()) {
	return func(ctx context.Context) (context.Context, func()) {
		fd := int(in.Fd())
		old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return ctx, func() {}
		}
		mode := *old
		mode.Lflag &^= unix.ICANON | unix.ECHO
		mode.Cc[unix.VMIN], mode.Cc[unix.VTIME] = 1, 0
		if unix.IoctlSetTermios(fd, unix.TCSETS, &mode) != nil {
			return ctx, func() {}
		}
		cr, err := cancelreader.NewReader(in)
		if err != nil {
			unix.IoctlSetTermios(fd, unix.TCSETS, old)
			return ctx, func() {}
		}
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			buf := make([]byte, 64)
			for {
				n, err := cr.Read(buf)
				if loneEsc(buf[:n]) {
					cancel()
				}
				if err != nil {
					return
				}
			}
		}()
		return ctx, func() {
			cr.Cancel()
			<-done
			cr.Close()
			unix.IoctlSetTermios(fd, unix.TCSETS, old)
			cancel()
		}
	}
}

// loneEsc reports whether a read from the terminal holds an Esc key press:
// an ESC byte that does not start an escape sequence (arrow and function
// keys send ESC '[' … or ESC 'O' … in one read).
func loneEsc(b []byte) bool {
	for i, c := range b {
		if c == 0x1b && (i+1 == len(b) || (b[i+1] != '[' && b[i+1] != 'O')) {
			return true
		}
	}
	return false
}
