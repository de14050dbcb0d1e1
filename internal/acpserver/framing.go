package acpserver

import (
	"io"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/i18n"
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
// only checked lines, answers the others itself, refuses calls before
// initialize, and at the end of the input waits for the calls read to be
// answered (at most DrainTimeout) before the SDK sees the end and cancels
// what runs.
type framing struct {
	out         *replyWriter
	notify      func(string)
	lang        *i18n.Printer // of the notices (their codes ungrouped)
	initialized bool          // an initialize call was read
}

func newFraming(in io.Reader, out *replyWriter, notify func(string), lang *i18n.Printer) io.Reader {
	f := &framing{out: out, notify: notify, lang: lang}
	return &jsonrpcline.Filter{Lines: jsonrpcline.NewReader(in, MaxLineBytes), Pass: f.pass, Refuse: f.refuse,
		AtEnd: func() { out.pending.Wait(DrainTimeout) }}
}

// pass returns line and its newline for the SDK, noting the call to
// answer; a call refused before initialize is answered and not passed.
func (f *framing) pass(m jsonrpcline.Message, line []byte) []byte {
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
	return jsonrpcline.Invalid(m.ID, m.Method+" before initialize: send initialize first")
}

// refuse answers a refused line and says so in a notice holding a bounded
// excerpt of it, never the whole line.
func (f *framing) refuse(e *jsonrpcline.Error, line []byte) {
	f.out.Write(e.Reply())
	excerpt := ""
	if line != nil {
		excerpt = ": " + jsonrpcline.Excerpt(line)
	}
	f.notify(f.lang.Plain().Sprintf("acp: refused a line (%d %s)%s", e.Code, e.Message, excerpt))
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
