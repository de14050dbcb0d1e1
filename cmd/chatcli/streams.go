package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
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

// confirm asks a yes/no question on the terminal; only "y" or "yes" agree.
func (s *ioStreams) confirm(question string) bool {
	fmt.Fprintf(s.Err, "%s [y/N] ", question)
	line, _ := bufio.NewReader(s.In).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}
