package main

import (
	"io"

	"github.com/chatcli/chatcli/internal/render"
)

// terminalText returns the writer for a document bound for standard output
// (a Markdown export), and the function that ends it: on a terminal the
// text goes through render.Visible, so it cannot drive the terminal; to a
// pipe or a file the document is written exactly.
func (s *ioStreams) terminalText() (io.Writer, func()) {
	if !s.OutTTY {
		return s.Out, func() {}
	}
	v := render.NewVisibleWriter(s.Out)
	return v, func() { v.Flush() }
}
