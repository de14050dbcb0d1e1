package editor

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// lineInput is the input one line's program reads. Once the line is
// finished (end), the bytes read are kept instead of handed to the
// program: bubbletea drops what its reader reads while the program shuts
// down, and those are keys a person typed on (the next line, sent before
// the REPL showed its prompt). ReadLine starts the next line with them.
type lineInput struct {
	r io.Reader

	mu    sync.Mutex
	ended bool
	late  []byte
}

// newLineInput wraps in. When in is an *os.File the result keeps its file
// descriptor, so that bubbletea still puts the terminal in raw mode and
// can cancel a blocked read (its cancel reader polls the descriptor).
func newLineInput(in io.Reader) (io.Reader, *lineInput) {
	li := &lineInput{r: in}
	if f, ok := in.(*os.File); ok {
		return &lineFile{lineInput: li, f: f}, li
	}
	return li, li
}

// Read reads from the input; after end it keeps what it read and returns
// 0 bytes (the program's reader then waits for more or for its cancel).
func (li *lineInput) Read(p []byte) (int, error) {
	n, err := li.r.Read(p)
	li.mu.Lock()
	defer li.mu.Unlock()
	if li.ended {
		li.late = append(li.late, p[:n]...)
		return 0, err
	}
	return n, err
}

// end marks the line finished: later reads are kept for the next line.
func (li *lineInput) end() {
	li.mu.Lock()
	li.ended = true
	li.mu.Unlock()
}

// taken returns the bytes read since end, and marks the input ended so
// that a read still in flight keeps its bytes too (they are lost then:
// nobody reads them; it only happens when a program's reader outlives the
// program).
func (li *lineInput) taken() []byte {
	li.mu.Lock()
	defer li.mu.Unlock()
	li.ended = true
	b := li.late
	li.late = nil
	return b
}

// lineFile is a lineInput over a file: the methods bubbletea and its
// cancel reader look for (term.File, cancelreader.File) are the file's.
type lineFile struct {
	*lineInput
	f *os.File
}

func (lf *lineFile) Write(p []byte) (int, error) { return lf.f.Write(p) }
func (lf *lineFile) Close() error                { return nil } // the terminal outlives the line
func (lf *lineFile) Fd() uintptr                 { return lf.f.Fd() }
func (lf *lineFile) Name() string                { return lf.f.Name() }

// lateKeys decodes b, bytes kept after a line ended, as bubbletea would
// have: the keys and pastes in it, in order (a terminal's replies to
// queries are left out).
func lateKeys(b []byte) []tea.Msg {
	if len(b) == 0 {
		return nil
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
