package main

import (
	"bufio"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ioStreams are the process's standard streams and whether each is a
// terminal; tests build them from buffers.
type ioStreams struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	InTTY  bool
	OutTTY bool
	ErrTTY bool
}

func systemStreams() *ioStreams {
	return &ioStreams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		InTTY: term.IsTerminal(int(os.Stdin.Fd())), OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd()))}
}

// confirm asks a yes/no question on the terminal in lang, whose yes
// agrees ("y" or "yes", and "s" or "sim" in Portuguese: Printer.Agrees).
func (s *ioStreams) confirm(lang *i18n.Printer, question string) bool {
	lang.Fprintf(s.Err, "%s [y/N] ", question)
	line, _ := bufio.NewReader(s.In).ReadString('\n')
	return lang.Agrees(line)
}
