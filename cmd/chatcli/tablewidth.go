package main

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// tableWidth is the width tables are fitted to (command.Env.Width): 0
// when standard output is not a terminal, so a pipe or a file gets every
// cell whole, as git and ls give theirs; on a terminal, COLUMNS when it is
// a number, else the terminal's width.
func (f *factory) tableWidth() int {
	if !f.streams.OutTTY {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(f.getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	return f.streams.width()
}

// errWidth is tableWidth for standard error, which notices, warnings and
// the REPL's banner and error lines are wrapped to (command.WrapText): 0
// when it is not a terminal, so a log gets every line as it was written.
func (f *factory) errWidth() int {
	if !f.streams.ErrTTY {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(f.getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil && w > 0 {
		return w
	}
	return f.streams.width()
}
