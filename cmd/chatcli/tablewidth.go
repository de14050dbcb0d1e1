package main

import (
	"strconv"
	"strings"
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
