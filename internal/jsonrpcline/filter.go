package jsonrpcline

import (
	"errors"
	"io"
)

// Filter is the io.Reader a protocol SDK's decoder reads instead of the
// input: it reads the input's lines (Lines), checks each (Check), and
// hands on only what Pass returns for a valid message; a refused line
// (not JSON-RPC 2.0, a batch, over the line limit) goes to Refuse and is
// never handed on. Blank lines are skipped.
type Filter struct {
	Lines *Reader
	// Pass returns the bytes to hand on for message m read as line (its
	// newline included), or nil to hand on nothing.
	Pass func(m Message, line []byte) []byte
	// Refuse answers a refused line; line is nil when it was too long to
	// keep.
	Refuse func(e *Error, line []byte)
	// AtEnd, when set, runs before the input's end is handed on (a drain
	// of the calls in flight).
	AtEnd func()

	buf []byte // bytes handed on, not yet read
	err error  // the input's end, returned once buf is empty
}

// Read implements io.Reader.
func (f *Filter) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		if f.err != nil {
			if f.err == io.EOF && f.AtEnd != nil {
				f.AtEnd()
			}
			return 0, f.err
		}
		line, err := f.Lines.Next()
		var refused *Error
		switch {
		case errors.As(err, &refused):
			f.Refuse(refused, nil)
		case err != nil:
			f.err = err
		default:
			f.buf = f.pass(line)
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

func (f *Filter) pass(line []byte) []byte {
	m, err := Check(line)
	var refused *Error
	switch {
	case errors.As(err, &refused):
		f.Refuse(refused, line)
		return nil
	case m.Kind == 0:
		return nil // blank
	}
	return f.Pass(m, line)
}
