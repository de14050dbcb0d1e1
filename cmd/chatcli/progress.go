package main

import (
	"io"

	"github.com/chatcli/chatcli/internal/render"
)

// spinner sets up the REPL's spinner when standard output is a terminal
// and noAnim is false (nil otherwise) and returns the writer for replies,
// which stops it before each write; standard error is wrapped the same
// way, so notices, tool lines and questions clear it too.
func (s *ioStreams) spinner(noAnim bool) (*render.Spinner, io.Writer) {
	if noAnim || !s.OutTTY {
		return nil, s.Out
	}
	spin := render.NewSpinner(s.Out)
	s.Err = spin.Guard(s.Err)
	return spin, spin.Guard(s.Out)
}
