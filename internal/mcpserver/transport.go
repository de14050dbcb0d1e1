package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/jsonrpcline"
)

// MaxLineBytes bounds one incoming message (one line), as the SDK's
// mcp.DefaultMaxLineLength does; a longer line is answered with an error
// and skipped.
const MaxLineBytes = mcp.DefaultMaxLineLength

// NewStdioTransport returns the MCP stdio transport (newline-delimited
// JSON-RPC, as the MCP specification's stdio transport defines it) over in
// and out, with a framing layer in front of the SDK's reader:
//
//   - Every line is checked first (package jsonrpcline): one that is not
//     a JSON-RPC 2.0 message, a batch (MCP 2025-06-18 has none), or a line
//     over MaxLineBytes is answered with a JSON-RPC error and skipped; the
//     session goes on. (The SDK's own reader ends the session at the first
//     such line.)
//   - Each request reaches the SDK under an id of the transport's own, and
//     its response goes out under exactly the id the client sent (JSON-RPC
//     2.0 §5: the response's id is the request's): ids the SDK cannot hold
//     (1.5, a 30-digit number) are answered as sent, and a client that
//     reuses the id of a request still in flight gets both answered.
//     notifications/cancelled names the request by the client's id and is
//     passed on under the transport's (the latest request of that id).
//   - When in ends (the client closed stdin), the requests already read are
//     answered before the session ends, waiting at most drain for them.
//
// Writes to out are one whole line each, serialised.
func NewStdioTransport(in io.Reader, out io.Writer, drain time.Duration) mcp.Transport {
	w := &lineWriter{w: out, calls: map[int64]json.RawMessage{}, byKey: map[string][]int64{}, pending: jsonrpcline.NewPending()}
	r := &lineReader{w: w}
	r.Filter = jsonrpcline.Filter{Lines: jsonrpcline.NewReader(in, MaxLineBytes), Pass: r.pass,
		Refuse: func(e *jsonrpcline.Error, _ []byte) { w.reject(e) }, AtEnd: func() { w.pending.Wait(drain) }}
	return &mcp.IOTransport{Reader: r, Writer: w}
}

// lineWriter serialises whole-line writes and puts back, in each response,
// the id the client gave its request.
type lineWriter struct {
	w       io.Writer
	mu      sync.Mutex
	calls   map[int64]json.RawMessage
	byKey   map[string][]int64 // the client's id (jsonrpcline.IDKey) → the calls in flight under it
	nextID  int64
	pending *jsonrpcline.Pending // the calls by the ids they are passed on under
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n, end, ok := sdkResponseID(p); ok && w.calls[n] != nil {
		if err := w.writeWithID(p, end, w.forget(n)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	line := p
	if m, err := jsonrpcline.Check(p); err == nil && m.Kind == jsonrpcline.Response {
		if n, err := strconv.ParseInt(string(m.ID), 10, 64); err == nil && w.calls[n] != nil {
			m.ID = w.forget(n)
			line = append(m.Encode(), '\n')
		}
	}
	if _, err := w.w.Write(line); err != nil {
		return 0, err
	}
	return len(p), nil
}

// admit records a call under the client's id and returns the id it is
// passed on under.
func (w *lineWriter) admit(id json.RawMessage) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.nextID++
	w.calls[w.nextID] = id
	k := jsonrpcline.IDKey(id)
	w.byKey[k] = append(w.byKey[k], w.nextID)
	w.pending.Add(json.RawMessage(strconv.FormatInt(w.nextID, 10)))
	return w.nextID
}

// retire forgets call n, which will never be answered.
func (w *lineWriter) retire(n int64) {
	w.mu.Lock()
	w.forget(n)
	w.mu.Unlock()
}

// forget removes answered call n and returns the client's id of it; the
// caller holds w.mu.
func (w *lineWriter) forget(n int64) json.RawMessage {
	id := w.calls[n]
	delete(w.calls, n)
	k := jsonrpcline.IDKey(id)
	rest := w.byKey[k][:0]
	for _, c := range w.byKey[k] {
		if c != n {
			rest = append(rest, c)
		}
	}
	if w.byKey[k] = rest; len(rest) == 0 {
		delete(w.byKey, k)
	}
	w.pending.Answered(json.RawMessage(strconv.FormatInt(n, 10)))
	return id
}

// inFlight returns the id the latest call in flight under the client's id
// was passed on under, or nil.
func (w *lineWriter) inFlight(id json.RawMessage) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	calls := w.byKey[jsonrpcline.IDKey(id)]
	if len(calls) == 0 {
		return nil
	}
	return json.RawMessage(strconv.FormatInt(calls[len(calls)-1], 10))
}

// Close leaves out open (it is the process's stdout) and ends any drain.
func (w *lineWriter) Close() error {
	w.pending.Close()
	return nil
}

// reject answers a refused line.
func (w *lineWriter) reject(e *jsonrpcline.Error) { w.Write(e.Reply()) }

// lineReader passes checked lines on to the SDK's decoder, under the ids
// lineWriter hands out, and answers the others itself.
type lineReader struct {
	jsonrpcline.Filter
	w *lineWriter
}

// pass returns the line to hand the SDK for message m, or nil when it was
// answered with an error.
func (r *lineReader) pass(m jsonrpcline.Message, line []byte) []byte {
	clientID, call := m.ID, int64(0)
	switch {
	case m.Kind == jsonrpcline.Call:
		call = r.w.admit(clientID)
		m.ID = json.RawMessage(strconv.FormatInt(call, 10))
		line = m.Encode()
	case m.Method == "notifications/cancelled":
		line = r.cancelled(m, line)
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil { // what the SDK refuses would end the session
		if call != 0 {
			r.w.retire(call)
		}
		r.w.reject(jsonrpcline.Invalid(clientID, err.Error()))
		return nil
	}
	return append(bytes.TrimSpace(line), '\n')
}

// cancelled rewrites a notifications/cancelled line to name the request
// by the id it was passed on under (MCP: params.requestId is the id of a
// request in flight); one naming no request in flight passes unchanged.
func (r *lineReader) cancelled(m jsonrpcline.Message, line []byte) []byte {
	var params map[string]json.RawMessage
	if json.Unmarshal(m.Members["params"], &params) != nil || params["requestId"] == nil {
		return line
	}
	id := r.w.inFlight(bytes.TrimSpace(params["requestId"]))
	if id == nil {
		return line
	}
	params["requestId"] = id
	m.Members["params"], _ = json.Marshal(params)
	return m.Encode()
}

// Close ends a drain in progress (the session is closing).
func (r *lineReader) Close() error { return r.w.Close() }
