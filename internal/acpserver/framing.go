package acpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/jsonrpcline"
)

// MaxLineBytes bounds one incoming ACP message (one line, its newline
// excluded). The SDK reads lines with a 10 MiB buffer and ends the
// connection at a longer one; chatcli answers a line over this bound with
// a JSON-RPC error (-32600, under the line's id when it comes early in the
// line) and goes on.
const MaxLineBytes = 10<<20 - 1<<10

// DrainTimeout bounds how long the end of stdin is held back from the SDK
// while requests already read are still unanswered.
const DrainTimeout = 2 * time.Second

// framing is the line-level filter in front of the SDK (see package
// jsonrpcline for the JSON-RPC 2.0 rules it enforces): it hands the SDK
// only checked lines, answers the others itself, and at the end of the
// input waits for the calls read to be answered (at most DrainTimeout)
// before the SDK sees the end and cancels what runs.
type framing struct {
	lines       *jsonrpcline.Reader
	out         *replyWriter
	notify      func(string)
	initialized bool // an initialize call was read
	buf         []byte
	err         error
}

func newFraming(in io.Reader, out *replyWriter, notify func(string)) *framing {
	return &framing{lines: jsonrpcline.NewReader(in, MaxLineBytes), out: out, notify: notify}
}

func (f *framing) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		if f.err != nil {
			if f.err == io.EOF {
				f.out.pending.Wait(DrainTimeout)
			}
			return 0, f.err
		}
		line, err := f.lines.Next()
		var refused *jsonrpcline.Error
		switch {
		case errors.As(err, &refused):
			f.refuse(refused, nil)
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

// pass returns line and its newline for the SDK when it is a JSON-RPC
// message, noting the call to answer; otherwise it answers line and
// returns nil.
func (f *framing) pass(line []byte) []byte {
	m, err := jsonrpcline.Check(line)
	var refused *jsonrpcline.Error
	if errors.As(err, &refused) {
		f.refuse(refused, line)
		return nil
	}
	if m.Kind == 0 {
		return nil // blank
	}
	if m.Kind == jsonrpcline.Call {
		if err := f.ready(m); err != nil {
			f.refuse(err, nil)
			return nil
		}
		f.out.pending.Add(m.ID)
	}
	return append(append([]byte(nil), line...), '\n')
}

// ready refuses a call other than initialize before the first initialize
// (ACP: a connection starts with initialize, which settles the protocol
// version and the capabilities every later method depends on). The order
// is the order the lines arrive in, whatever order the SDK serves them in.
func (f *framing) ready(m jsonrpcline.Message) *jsonrpcline.Error {
	if m.Method == acp.AgentMethodInitialize {
		f.initialized = true
	}
	if f.initialized {
		return nil
	}
	return &jsonrpcline.Error{Code: jsonrpcline.CodeInvalidRequest, IDs: []json.RawMessage{m.ID},
		Message: "Invalid Request: " + m.Method + " before initialize: send initialize first"}
}

// refuse answers a refused line and says so in a notice holding a bounded
// excerpt of it, never the whole line.
func (f *framing) refuse(e *jsonrpcline.Error, line []byte) {
	f.out.Write(e.Reply())
	excerpt := ""
	if line != nil {
		excerpt = ": " + jsonrpcline.Excerpt(line)
	}
	f.notify(fmt.Sprintf("acp: refused a line (%d %s)%s", e.Code, e.Message, excerpt))
}

// replyWriter serialises whole-line writes to the client (the SDK's and
// the framing's) and notes the calls they answer.
type replyWriter struct {
	w       io.Writer
	mu      sync.Mutex
	pending *jsonrpcline.Pending
}

func newReplyWriter(w io.Writer) *replyWriter {
	return &replyWriter{w: w, pending: jsonrpcline.NewPending()}
}

func (w *replyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if m, err := jsonrpcline.Check(p); err == nil && m.Kind == jsonrpcline.Response {
		w.pending.Answered(m.ID)
	}
	return w.w.Write(p)
}
