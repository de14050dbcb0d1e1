package main

import (
	"io"
	"os"
	"sync"

	"golang.org/x/term"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/render"
)

// terminalOutput is what the REPL draws on a terminal beyond plain text:
// the spinner and rendered replies. Either may be off (nil).
type terminalOutput struct {
	spin   *render.Spinner
	md     *render.Markdown
	prompt func(string) string // colours the prompt; nil leaves it plain

	mu  sync.Mutex
	cur *render.Stream // the reply being rendered; nil between replies
}

// terminal sets up the REPL's spinner (stdout a terminal, noAnim false),
// Markdown rendering (stdout a terminal, raw false, CHATCLI_RENDER on, no
// NO_COLOR) and colours (the prompt on a terminal, the error, warning and
// note lines of standard error when it is one; none with NO_COLOR or
// CLICOLOR=0), and returns the writer for replies and messages, which stops
// the spinner before each write. Standard error is wrapped to stop it and
// to finish the reply's rendered text first, so notices, tool lines and
// questions come after it.
func (s *ioStreams) terminal(c config.Config, noAnim, raw bool) (*terminalOutput, io.Writer) {
	t := &terminalOutput{}
	if s.ErrTTY && !c.NoColor {
		s.Err = render.Labelled(s.Err)
	}
	if !s.OutTTY {
		return t, s.Out
	}
	if !c.NoColor {
		t.prompt = render.Prompt
	}
	if !noAnim {
		t.spin = render.NewSpinner(s.Out)
	}
	if !raw && c.Render && !c.NoColor {
		t.md = render.NewMarkdown(func() int { return s.width() })
	}
	s.Err = render.Before(s.Err, t.spin.Stop, t.flush)
	return t, render.Before(s.Out, t.spin.Stop)
}

// width is the terminal width of standard output, 80 when unknown.
func (s *ioStreams) width() int {
	if f, ok := s.Out.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}

// progress is command.Env.Progress: nil without a spinner.
func (t *terminalOutput) progress() func(string) func() {
	if t.spin == nil {
		return nil
	}
	return t.spin.Start
}

// reply is command.Env.Reply: nil without rendering.
func (t *terminalOutput) reply() func(io.Writer) io.WriteCloser {
	if t.md == nil {
		return nil
	}
	return func(out io.Writer) io.WriteCloser {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.cur = t.md.Stream(out)
		return t.cur
	}
}

// flush writes the text of the reply being rendered so far.
func (t *terminalOutput) flush() {
	t.mu.Lock()
	cur := t.cur
	t.mu.Unlock()
	if cur != nil {
		cur.Flush()
	}
}
