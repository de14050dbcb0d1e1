package repl

import (
	"context"
	"os"
	"sync"

	"github.com/muesli/cancelreader"
	"golang.org/x/sys/unix"
)

// EscCancels returns a function that runs a command so that pressing Esc
// cancels it: while the command runs, the terminal on in is switched to
// non-canonical mode without echo (output processing and Ctrl+C signals are
// unchanged) and its keys are read; Esc cancels the context. The stop
// function restores the terminal and stops reading. The bytes read
// meanwhile are handed to keep (when not nil) each time the reading stops,
// so that what was typed ahead reaches the next prompt (editor.TypeAhead
// drops the Esc). When in is not a terminal, contexts are returned
// unchanged. A question asked meanwhile (a permission prompt) calls
// PauseKeys on the context to have the terminal back.
func EscCancels(in *os.File, keep func([]byte)) func(context.Context) (context.Context, func()) {
	return func(ctx context.Context) (context.Context, func()) {
		fd := int(in.Fd())
		old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return ctx, func() {}
		}
		ctx, cancel := context.WithCancel(ctx)
		w := &keyWatch{in: in, fd: fd, old: old, cancel: cancel, keep: keep}
		if !w.start() {
			cancel()
			return ctx, func() {}
		}
		return context.WithValue(ctx, keyWatchKey{}, w), func() {
			w.stop()
			cancel()
		}
	}
}

// keyWatchKey is the context key of the running keyWatch.
type keyWatchKey struct{}

// keyWatch reads the terminal's keys while a command runs.
type keyWatch struct {
	in     *os.File
	fd     int
	old    *unix.Termios
	cancel context.CancelFunc
	keep   func([]byte) // hears the bytes read; may be nil

	mu      sync.Mutex
	cr      cancelreader.CancelReader
	done    chan struct{}
	running bool
	typed   []byte // what the reading goroutine read, set before done closes
}

// start switches the terminal to non-canonical mode and reads keys until
// stop; it reports whether it could.
func (w *keyWatch) start() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	mode := *w.old
	mode.Lflag &^= unix.ICANON | unix.ECHO
	mode.Cc[unix.VMIN], mode.Cc[unix.VTIME] = 1, 0
	if unix.IoctlSetTermios(w.fd, unix.TCSETS, &mode) != nil {
		return false
	}
	cr, err := cancelreader.NewReader(w.in)
	if err != nil {
		unix.IoctlSetTermios(w.fd, unix.TCSETS, w.old)
		return false
	}
	w.cr, w.done, w.running = cr, make(chan struct{}), true
	go func(done chan struct{}) {
		defer close(done)
		var typed []byte
		defer func() { w.typed = typed }()
		buf := make([]byte, 64)
		for {
			n, err := cr.Read(buf)
			typed = append(typed, buf[:n]...)
			if loneEsc(buf[:n]) {
				w.cancel()
			}
			if err != nil {
				return
			}
		}
	}(w.done)
	return true
}

// stop stops reading and restores the terminal; it does nothing when the
// watch is not running.
func (w *keyWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.running {
		return
	}
	w.cr.Cancel()
	<-w.done
	w.cr.Close()
	unix.IoctlSetTermios(w.fd, unix.TCSETS, w.old)
	w.running = false
	if typed := w.typed; len(typed) > 0 && w.keep != nil {
		w.typed = nil
		w.keep(typed)
	}
}

// PauseKeys stops the Esc watch running for ctx (see EscCancels), so that a
// question can be asked on the terminal, and returns the function that
// starts it again. Without a watch both do nothing.
func PauseKeys(ctx context.Context) (resume func()) {
	w, ok := ctx.Value(keyWatchKey{}).(*keyWatch)
	if !ok {
		return func() {}
	}
	w.stop()
	return func() {
		if ctx.Err() == nil {
			w.start()
		}
	}
}

// loneEsc reports whether a read from the terminal holds an Esc key press:
// an ESC byte that ends the read or is followed by another ESC (Esc
// pressed twice). A terminal writes a key's whole sequence at once, so an
// ESC followed by anything else in the same read starts a sequence: an
// arrow or function key (ESC '[' …, ESC 'O' …), an Alt chord (Alt+Enter
// is ESC CR: a line break typed ahead, not a cancel), or the string
// terminator of a reply to a query (ESC '\\').
func loneEsc(b []byte) bool {
	for i, c := range b {
		if c == 0x1b && (i+1 == len(b) || b[i+1] == 0x1b) {
			return true
		}
	}
	return false
}
