package jsonrpcline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// sniffBytes is how much of an over-long line is kept to find its id.
const sniffBytes = 64 * 1024

// Reader reads newline-delimited lines of at most a fixed number of bytes.
type Reader struct {
	br  *bufio.Reader
	max int
}

// NewReader returns a Reader of r whose lines hold at most maxBytes bytes
// (their newline excluded).
func NewReader(r io.Reader, maxBytes int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64*1024), max: maxBytes}
}

// Next returns the next line without its newline. A line longer than the
// limit is read to its end, keeping only its start, and comes back as nil
// with an *Error to answer it with (-32600 under the id found in its start,
// else null). At the end of the input it returns the last line, if any,
// then io.EOF; other read errors as they come.
func (r *Reader) Next() ([]byte, error) {
	var line []byte
	n, keep := 0, max(r.max, sniffBytes)+1
	for {
		chunk, err := r.br.ReadSlice('\n')
		n += len(chunk)
		if len(line) < keep {
			line = append(line, chunk[:min(len(chunk), keep-len(line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && n == 0 {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) > r.max {
			size := n
			if err == nil {
				size-- // the newline
			}
			return nil, tooLong(line, size, r.max)
		}
		return line, nil
	}
}

// tooLong is the answer to a line of size bytes, whose start is start.
func tooLong(start []byte, size, limit int) *Error {
	return Invalid(sniffID(start[:min(len(start), sniffBytes)]),
		fmt.Sprintf("the message is %d bytes, over the limit of %d bytes for one line", size, limit))
}

// sniffID returns the top-level "id" member of the JSON object that start
// begins, when it is a string or a number and comes before anything start
// cuts; nil otherwise.
func sniffID(start []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(start))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil
		}
		if key == "id" {
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
				return v
			}
			return nil
		}
	}
	return nil
}
