package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one incoming message (one line), as the SDK's
// mcp.DefaultMaxLineLength does; a longer line is answered with a parse
// error and skipped.
const MaxLineBytes = mcp.DefaultMaxLineLength

// NewStdioTransport returns the MCP stdio transport (newline-delimited
// JSON-RPC, as the MCP specification's stdio transport defines it) over in
// and out, made sturdier than the SDK's in two ways:
//
//   - A line that is not JSON, or not a JSON-RPC message, is answered with
//     a JSON-RPC error (-32700 parse error or -32600 invalid request, id
//     null) and skipped; the session goes on. (The SDK's own reader ends
//     the session at the first such line.)
//   - When in ends (the client closed stdin), the requests already read are
//     answered before the session ends, waiting at most drain for them.
//
// Writes to out are one whole line each, serialised.
func NewStdioTransport(in io.Reader, out io.Writer, drain time.Duration) mcp.Transport {
	w := &lineWriter{w: out}
	r := &lineReader{br: bufio.NewReaderSize(in, 64*1024), w: w, drain: drain}
	w.done = sync.NewCond(&w.mu)
	return &mcp.IOTransport{Reader: r, Writer: w}
}

// lineWriter serialises whole-line writes and counts the responses that
// answer the requests lineReader let through.
type lineWriter struct {
	w       io.Writer
	mu      sync.Mutex
	done    *sync.Cond // signalled when pending changes or closed is set
	pending map[string]int
	closed  bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	msgs, _ := decodeLine(bytes.TrimSpace(p))
	for _, msg := range msgs {
		if resp, ok := msg.(*jsonrpc.Response); ok && w.pending[idKey(resp.ID)] > 0 {
			w.pending[idKey(resp.ID)]--
			w.done.Broadcast()
		}
	}
	return n, err
}

// Close leaves out open (it is the process's stdout) and ends any drain.
func (w *lineWriter) Close() error {
	w.mu.Lock()
	w.closed = true
	w.done.Broadcast()
	w.mu.Unlock()
	return nil
}

// reject answers a line that is not a JSON-RPC message.
func (w *lineWriter) reject(code int, why string) {
	resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": why}})
	w.Write(append(resp, '\n'))
}

func (w *lineWriter) expect(id jsonrpc.ID) {
	w.mu.Lock()
	if w.pending == nil {
		w.pending = map[string]int{}
	}
	w.pending[idKey(id)]++
	w.mu.Unlock()
}

// waitAnswered blocks until every expected response was written, the
// transport closed, or d passed.
func (w *lineWriter) waitAnswered(d time.Duration) {
	timer := time.AfterFunc(d, func() {
		w.mu.Lock()
		w.closed = true
		w.done.Broadcast()
		w.mu.Unlock()
	})
	defer timer.Stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.closed && w.outstanding() > 0 {
		w.done.Wait()
	}
}

func (w *lineWriter) outstanding() int {
	n := 0
	for _, c := range w.pending {
		n += c
	}
	return n
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// lineReader passes well-formed JSON-RPC lines on to the SDK's decoder and
// answers the others itself.
type lineReader struct {
	br    *bufio.Reader
	w     *lineWriter
	drain time.Duration
	buf   []byte // the current line, not yet read by the decoder
	err   error  // the input's end, returned once buf is empty
}

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			if r.err == io.EOF {
				r.w.waitAnswered(r.drain)
			}
			return 0, r.err
		}
		var line []byte
		line, r.err = r.readLine()
		r.buf = r.check(line)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// readLine returns the next line; one longer than MaxLineBytes comes back
// as nil after being read to its end (and rejected).
func (r *lineReader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineBytes {
			line = line[:0:0]
			for err == bufio.ErrBufferFull {
				_, err = r.br.ReadSlice('\n')
			}
			r.w.reject(jsonrpc.CodeParseError, fmt.Sprintf("Parse error: message longer than %d bytes", MaxLineBytes))
			return nil, err
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// check returns line when it holds a JSON-RPC message (or a batch of
// them), noting the requests to answer; otherwise it answers the line with
// an error and returns nil. Blank lines are skipped.
func (r *lineReader) check(line []byte) []byte {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return nil
	}
	if !json.Valid(t) {
		r.w.reject(jsonrpc.CodeParseError, "Parse error: the line is not JSON")
		return nil
	}
	msgs, err := decodeLine(t)
	if err != nil {
		r.w.reject(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		return nil
	}
	var calls []jsonrpc.ID
	for _, msg := range msgs {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			calls = append(calls, req.ID)
		}
	}
	for _, id := range calls {
		r.w.expect(id)
	}
	return append(append([]byte(nil), t...), '\n')
}

// decodeLine decodes one line: a JSON-RPC message or a batch (array) of
// them.
func decodeLine(t []byte) ([]jsonrpc.Message, error) {
	if len(t) == 0 || t[0] != '[' {
		msg, err := jsonrpc.DecodeMessage(t)
		if err != nil {
			return nil, err
		}
		return []jsonrpc.Message{msg}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(t, &raws); err != nil || len(raws) == 0 {
		return nil, fmt.Errorf("an empty or malformed batch")
	}
	msgs := make([]jsonrpc.Message, 0, len(raws))
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	return msgs, nil
}

// Close ends a drain in progress (the session is closing).
func (r *lineReader) Close() error { return r.w.Close() }
