package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chatcli/chatcli/internal/i18n"
)

// readLines calls fn with the number and bytes of each non-blank line of
// the JSON Lines file at path (split on '\n', a final line without one
// included). A line fn refuses (not JSON, or JSON of another shape) is a
// Problem naming the file and line, and the reading goes on. The error is
// the file's own (it cannot be opened or read).
func readLines(path string, fn func(line int, raw []byte) error) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var problems []Problem
	for n := 1; ; n++ {
		raw, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return problems, i18n.Errorf("%s: %w", fmt.Sprintf("%s:%d", path, n), err)
		}
		if line := bytes.TrimSpace(raw); len(line) > 0 {
			if ferr := fn(n, line); ferr != nil {
				problems = append(problems, Problem{Path: path, Line: n, Reason: ferr})
			}
		}
		if err != nil {
			return problems, nil
		}
	}
}

// errForeign is the reason of a JSON line without the tool's shape.
var errForeign = i18n.Errorf("not a line this tool writes; skipped")

// notJSON is the reason of a line that is not JSON.
func notJSON(err error) error { return i18n.Errorf("not JSON (%v); skipped", err) }
