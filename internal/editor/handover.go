package editor

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/cancelreader"
)

// endMark is written after the last byte a line's program is given: an
// APC string no terminal sends, which bubbletea's decoder reports as an
// uv.UnknownApcEvent. The program exits when it reads it, so every key
// typed before the line ended has reached the model, and none after.
const endMark = "\x1b_chatcli-line-end\x1b\\"

// isEndMark reports whether msg is endMark, decoded.
func isEndMark(msg tea.Msg) bool {
	ev, ok := msg.(uv.UnknownApcEvent)
	return ok && string(ev) == endMark
}

// isKey reports whether msg is a key press or a paste: what a finished
// program keeps for the next line.
func isKey(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true
	}
	return false
}

// markLate is how long a finished program waits for endMark before it
// exits anyway (the keys still in flight are then lost). The mark always
// follows what the program was given, outside any paste, so this only
// matters if the decoder misread it: a person would rather lose a key
// than have the REPL hang. In nanoseconds, atomic: tests change it while
// the commands of earlier programs may still read it.
var markLate atomic.Int64

func init() { markLate.Store(int64(5 * time.Second)) }

// quitLate is the command of a finished program: it ends the program
// markLate later, unless the program has exited by then (gone closed; a
// nil gone never is).
func quitLate(gone <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(time.Duration(markLate.Load()))
		defer t.Stop()
		select {
		case <-t.C:
			return tea.QuitMsg{}
		case <-gone:
			return nil
		}
	}
}

// handover is the input of one program of the editor (a line or a key).
// The terminal is read here and its bytes handed to the program through
// a pipe until the model calls end; what is read after that is kept for
// the next line instead (bubbletea would drop what its reader reads
// while the program shuts down: keys a person typed on, the next line
// sent before the REPL showed its prompt).
type handover struct {
	in     io.Reader                 // the terminal
	src    cancelreader.CancelReader // reads in
	pr, pw *os.File                  // the pipe the program reads
	tty    *os.File                  // the terminal when it is one, else nil
	raw    func()                    // restores the terminal's mode; nil if unchanged
	done   chan struct{}             // closed when forward returns
	gone   chan struct{}             // closed by stop: the program has exited
	grew   chan struct{}             // signalled when late grows

	mu    sync.Mutex
	ended bool
	held  []byte     // a bracketed paste begun and not yet ended: given whole
	late  []byte     // bytes read after end
	wmu   sync.Mutex // orders the writes to pw: the mark comes last
}

// startHandover puts the terminal in raw mode (when in is one; bubbletea
// does not, as it reads a pipe) and starts reading it.
func startHandover(in io.Reader) (*handover, error) {
	h := &handover{in: in, done: make(chan struct{}), gone: make(chan struct{}), grew: make(chan struct{}, 1)}
	if f, ok := in.(*os.File); ok && term.IsTerminal(f.Fd()) {
		old, err := term.MakeRaw(f.Fd())
		if err != nil {
			return nil, err
		}
		h.tty, h.raw = f, func() { term.Restore(f.Fd(), old) }
	}
	var err error
	if h.pr, h.pw, err = os.Pipe(); err != nil {
		h.restore()
		return nil, err
	}
	if h.src, err = cancelreader.NewReader(in); err != nil {
		h.pr.Close()
		h.pw.Close()
		h.restore()
		return nil, err
	}
	go h.forward()
	return h, nil
}

// input is what the program reads: the pipe. On a terminal it also
// offers the terminal's descriptor, as a term.File, so that bubbletea
// treats its input as the terminal (raw mode, which it saves and restores,
// and its line-feed handling) as when it reads the terminal itself; it has
// no Name method, so it is no cancelreader.File and bubbletea's cancel
// reader does not poll that descriptor: stop closes the pipe instead.
func (h *handover) input() io.Reader {
	if h.tty != nil {
		return ttyPipe{pipe{h.pr}, h.tty}
	}
	return pipe{h.pr}
}

// pipe reads the handover's pipe (only Read: see handover.input).
type pipe struct{ r *os.File }

func (p pipe) Read(b []byte) (int, error) { return p.r.Read(b) }

// ttyPipe is a pipe with the terminal's descriptor (see handover.input).
type ttyPipe struct {
	pipe
	tty *os.File
}

func (t ttyPipe) Write(b []byte) (int, error) { return t.tty.Write(b) }
func (t ttyPipe) Close() error                { return nil } // the terminal outlives the program
func (t ttyPipe) Fd() uintptr                 { return t.tty.Fd() }

func (h *handover) restore() {
	if h.raw != nil {
		h.raw()
	}
}

// forward hands the terminal's bytes to the program until end, and keeps
// them afterwards. A bracketed paste is handed over whole, once its end
// has been read, so that the mark never falls inside one. The end of the
// terminal's input closes the pipe, so the program sees it too.
func (h *handover) forward() {
	defer close(h.done)
	buf := make([]byte, 4096)
	for {
		n, err := h.src.Read(buf)
		h.mu.Lock()
		if h.ended {
			h.late = append(h.late, buf[:n]...)
			h.mu.Unlock()
			select {
			case h.grew <- struct{}{}:
			default:
			}
		} else {
			h.held = append(h.held, buf[:n]...)
			cut := openPaste(h.held)
			give := h.held[:cut]
			h.held = append([]byte(nil), h.held[cut:]...)
			h.wmu.Lock() // taken before mu is let go: the mark waits for this write
			h.mu.Unlock()
			if len(give) > 0 {
				h.pw.Write(give)
			}
			if err != nil && !errors.Is(err, cancelreader.ErrCanceled) {
				h.pw.Close()
			}
			h.wmu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// Bracketed paste (xterm): a terminal sends a paste between these.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// openPaste is where b's unfinished part begins: a paste started and not
// ended, or the start of one cut by the read ("\x1b[2", "\x1b[20",
// "\x1b[200" at the very end); len(b) when there is none.
func openPaste(b []byte) int {
	if i := bytes.LastIndex(b, []byte(pasteStart)); i >= 0 && !bytes.Contains(b[i:], []byte(pasteEnd)) {
		return i
	}
	for n := len(pasteStart) - 1; n >= 3; n-- {
		if bytes.HasSuffix(b, []byte(pasteStart[:n])) {
			return len(b) - n
		}
	}
	return len(b)
}

// end marks the input finished: the program is sent endMark after what it
// was given, and later bytes are kept. It does not block (it is called from
// the program's Update).
func (h *handover) end() {
	h.mu.Lock()
	first := !h.ended
	h.ended = true
	h.late, h.held = append(h.held, h.late...), nil // read before anything later
	h.mu.Unlock()
	if first {
		go func() {
			h.wmu.Lock()
			defer h.wmu.Unlock()
			io.WriteString(h.pw, endMark)
		}()
	}
}

// pasteWait is how long stop waits for more of a paste the person began
// after the line ended, before it takes the part it has: a terminal sends
// a paste at once, so a gap this long is a loaded machine's, not the
// terminal's.
const pasteWait = 2 * time.Second

// stop ends the handover once the program has exited: it stops reading
// the terminal (once a paste begun after the end has ended, or paused for
// pasteWait; a paste begun in the very read the stop cut short is read on
// to its end), restores its mode and returns the bytes read after end.
// A reader that cannot be cancelled (input that is not a file: tests) is
// left blocked; what it reads later is lost.
func (h *handover) stop() []byte {
	close(h.gone)
	h.mu.Lock()
	h.ended = true
	h.late, h.held = append(h.held, h.late...), nil
	h.mu.Unlock()
	h.pr.Close() // a write the program no longer reads fails instead of blocking
	for {
		gaveUp := h.awaitPasteEnd()
		cancelled := h.src.Cancel()
		if cancelled {
			<-h.done
		}
		h.src.Close()
		h.mu.Lock()
		open := openPaste(h.late) < len(h.late)
		h.mu.Unlock()
		if !open || !cancelled || gaveUp {
			break
		}
		// A paste began in the last read before the reading stopped: read
		// on until it ends.
		src, err := cancelreader.NewReader(h.in)
		if err != nil {
			break
		}
		h.src, h.done = src, make(chan struct{})
		go h.forward()
	}
	h.restore()
	h.wmu.Lock()
	h.pw.Close()
	h.wmu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	late := h.late
	h.late = nil
	return late
}

// awaitPasteEnd waits while the bytes kept after the end hold a paste not
// yet ended, as long as more keep coming (pasteWait at most between two
// reads); it reports whether it gave up.
func (h *handover) awaitPasteEnd() (gaveUp bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for openPaste(h.late) < len(h.late) {
		h.mu.Unlock()
		grew := false
		select {
		case <-h.grew:
			grew = true
		case <-h.done:
		case <-time.After(pasteWait):
		}
		h.mu.Lock()
		if !grew {
			return true
		}
	}
	return false
}

// lateKeys decodes b, bytes kept after a line ended, as bubbletea would
// have: the keys and pastes in it, in order (a terminal's replies to
// queries are left out). A paste cut short (it was still arriving after
// pasteWait) is a paste of the part read, never a key a character.
func lateKeys(b []byte) []tea.Msg {
	if len(b) == 0 {
		return nil
	}
	if i := openPaste(b); i < len(b) {
		keys := lateKeys(b[:i])
		if rest, ok := strings.CutPrefix(string(b[i:]), pasteStart); ok { // cut short: still one paste
			keys = append(keys, tea.PasteMsg{Content: rest})
		}
		return keys // (a paste's start marker cut short is no key)
	}
	events := make(chan uv.Event, len(b)+1) // at most one event a byte
	uv.NewTerminalReader(bytes.NewReader(b), os.Getenv("TERM")).StreamEvents(context.Background(), events)
	close(events)
	var keys []tea.Msg
	for ev := range events {
		switch ev := ev.(type) {
		case uv.KeyPressEvent:
			keys = append(keys, tea.KeyPressMsg(ev))
		case uv.PasteEvent:
			keys = append(keys, tea.PasteMsg(ev))
		}
	}
	return keys
}
