package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/message"
)

// historyBatchBytes is about how many bytes of chat_history DecodeReader
// hands to message.DecodeList at once: large enough that its fast path
// pays, small enough that the batch is nothing beside a long history.
const historyBatchBytes = 1 << 20

// decodeBufBytes is DecodeReader's read buffer.
const decodeBufBytes = 256 << 10

// Decode parses a session file's bytes: v2, a v1 object with per-mode
// histories, or a v1 bare message array (DecodeReader's formats and
// errors).
func Decode(data []byte) (*Session, error) { return DecodeReader(bytes.NewReader(data)) }

// DecodeReader parses a session document read from r: v2, a v1 object
// with per-mode histories, or a v1 bare message array. It reads r once,
// through a fixed buffer, and decodes chat_history in batches of about
// historyBatchBytes, so its peak memory is the decoded session plus about
// a megabyte whatever the document's size. Errors: one wrapping
// jsonscan.ErrSyntax for broken JSON (with the byte offset; a document
// cut short says it ends early), errEmpty, errTooNew (even when the
// newer format's messages do not decode), errFormat naming the member and,
// for a message, its number and byte offset; an error of r is returned
// wrapped.
func DecodeReader(r io.Reader) (*Session, error) { return decodeReader(r, false) }

// decodeReader is DecodeReader; with discard set, each batch of messages
// is decoded (and so checked) and dropped.
func decodeReader(r io.Reader, discard bool) (*Session, error) {
	st := jsonscan.NewStream(r, make([]byte, decodeBufBytes))
	c, err := st.Peek()
	if errors.Is(err, jsonscan.ErrSyntax) { // nothing but white space
		return nil, errEmpty
	}
	if err != nil {
		return nil, err
	}
	if c == '[' {
		h, err := decodeHistory(st, discard)
		if err == nil {
			err = st.End()
		}
		if err != nil {
			return nil, err
		}
		return &Session{History: sanitize(h.msgs), SourceVersion: 1}, h.err
	}
	if c != '{' {
		return nil, i18n.Errorf("%w: want an object at byte %d", jsonscan.ErrSyntax, st.Offset())
	}
	top, h, err := decodeMembers(st, discard)
	if err != nil {
		return nil, err
	}
	return finishDecode(top, h)
}

// member is one top-level member of a session document other than
// chat_history, its value copied out of the read buffer.
type member struct {
	key   string
	value json.RawMessage
}

// decodeMembers reads the top-level object: chat_history decoded as it
// streams by (the last one wins, as in encoding/json), every other member
// copied, in order.
func decodeMembers(st *jsonscan.Stream, discard bool) ([]member, *history, error) {
	if _, err := st.Enter(); err != nil {
		return nil, nil, err
	}
	var top []member
	var h *history
	for {
		more, err := st.More()
		if err != nil {
			return nil, nil, err
		}
		if !more {
			break
		}
		key, err := st.KeyUpTo(math.MaxInt)
		if err != nil {
			return nil, nil, err
		}
		if key == "chat_history" {
			if h, err = decodeHistory(st, discard); err != nil {
				return nil, nil, err
			}
			continue
		}
		raw, _, err := st.Raw(nil, math.MaxInt)
		if err != nil {
			return nil, nil, err
		}
		top = append(top, member{key, raw})
	}
	return top, h, st.End()
}

// history is a decoded chat_history: its messages, or the first message
// that did not decode (err, wrapping errFormat), after which the rest of
// the array was only checked.
type history struct {
	msgs    []message.Message
	n       int // messages decoded, dropped ones included
	err     error
	discard bool // decoded messages are dropped (CheckReader)
}

// decodeHistory reads the array (or null) at the Stream's position into
// messages, historyBatchBytes at a time. Only a structural error of the
// document is returned as the error; a message that does not decode is
// kept in history.err, so the caller can still learn the format version.
func decodeHistory(st *jsonscan.Stream, discard bool) (*history, error) {
	h := &history{discard: discard}
	c, err := st.Peek()
	if err != nil {
		return nil, err
	}
	if c != '[' {
		raw, _, err := st.Raw(nil, 16)
		if err == nil && string(raw) != "null" {
			h.err = i18n.Errorf("%w: field \"chat_history\" is %s, not an array of messages", errFormat, kindOf(raw))
		}
		return h, err
	}
	if _, err := st.Enter(); err != nil {
		return nil, err
	}
	b := batch{}
	for {
		more, err := st.More()
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		if h.err != nil {
			if err := st.Skip(); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := st.Peek(); err != nil {
			return nil, err
		}
		at := st.Offset()
		if b.data, _, err = st.Raw(append(b.data, ','), math.MaxInt); err != nil {
			return nil, err
		}
		b.end, b.at = append(b.end, len(b.data)), append(b.at, at)
		if len(b.data) >= historyBatchBytes {
			h.flush(&b)
		}
	}
	if h.err == nil {
		h.flush(&b)
	}
	return h, nil
}

// kindOf names the JSON kind of a value by its first byte, for errors.
func kindOf(raw []byte) i18n.Text {
	switch raw[0] {
	case '{':
		return i18n.Textf("an object")
	case '"':
		return i18n.Textf("a string")
	case 't', 'f':
		return i18n.Textf("a boolean")
	}
	return i18n.Textf("a number")
}

// batch is a run of chat_history's elements as read: data is ",e1,e2…",
// end[k] the end of element k in data, at[k] its byte offset in the
// document.
type batch struct {
	data []byte
	end  []int
	at   []int64
}

// flush decodes b's messages onto h and empties b; a batch that does not
// decode leaves h.err naming its first bad message.
func (h *history) flush(b *batch) {
	if len(b.at) == 0 {
		return
	}
	b.data[0] = '['
	msgs, err := message.DecodeList(append(b.data, ']'))
	switch {
	case err != nil:
		h.err = h.locate(b, err)
	case !h.discard:
		h.msgs = append(h.msgs, msgs...)
	}
	h.n += len(msgs)
	b.data, b.end, b.at = b.data[:0], b.end[:0], b.at[:0]
}

// locate decodes b's messages one by one to name the first that fails:
// the error wraps errFormat and gives its number in chat_history and its
// byte offset in the document (batchErr when each decodes alone).
func (h *history) locate(b *batch, batchErr error) error {
	from := 1
	for k, end := range b.end {
		var m message.Message
		if err := json.Unmarshal(b.data[from:end], &m); err != nil {
			return i18n.Errorf("%w: field \"chat_history\": message #%d at byte %d: %v", errFormat, h.n+k+1, b.at[k], err)
		}
		from = end + 1
	}
	return i18n.Errorf("%w: field \"chat_history\": %v", errFormat, batchErr)
}
