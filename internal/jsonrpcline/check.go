package jsonrpcline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// JSON-RPC 2.0 error codes (§5.1).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// Kind is the kind of message a line holds (JSON-RPC 2.0 §4, §4.1, §5).
type Kind int

// The kinds of message: a Call has an id and a method, a Notification a
// method only, a Response an id and a result or an error.
const (
	Call Kind = iota + 1
	Notification
	Response
)

// Message is a line that passed Check.
type Message struct {
	Kind Kind
	// ID is the id member as sent, without surrounding spaces; nil for a
	// notification.
	ID json.RawMessage
	// Method is the method of a call or notification, "" for a response.
	Method string
	// Members are the object's members as sent, for a caller that rewrites
	// the message (see Encode).
	Members map[string]json.RawMessage
}

// Encode returns m's members as one JSON object, with ID as the id: the
// line to hand on after a rewrite, without its newline.
func (m Message) Encode() []byte {
	members := make(map[string]json.RawMessage, len(m.Members))
	for k, v := range m.Members {
		members[k] = v
	}
	if m.ID != nil {
		members["id"] = m.ID
	}
	data, _ := json.Marshal(members) // raw members were checked valid JSON
	return data
}

// Error is the JSON-RPC error a refused line is answered with.
type Error struct {
	Code int
	// Message is the error's message, starting with the code's name.
	Message string
	// IDs are the ids to answer under ("null" when unknown); a batch has
	// one per call.
	IDs []json.RawMessage
	// Batch reports whether the line was a batch: the reply is an array.
	Batch bool
}

func (e *Error) Error() string { return e.Message }

// Reply is the reply line, newline included: one JSON-RPC Response object
// per id, in an array when the refused line was a batch.
func (e *Error) Reply() []byte {
	type errObj struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	type resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   errObj          `json:"error"`
	}
	out := make([]resp, 0, len(e.IDs))
	for _, id := range e.IDs {
		out = append(out, resp{JSONRPC: "2.0", ID: id, Error: errObj{e.Code, e.Message}})
	}
	var data []byte
	if e.Batch && len(out) > 0 {
		data, _ = json.Marshal(out)
	} else {
		data, _ = json.Marshal(out[0])
	}
	return append(data, '\n')
}

var null = json.RawMessage("null")

// Invalid is the -32600 Invalid Request error answering a message under id
// (null when nil), saying why.
func Invalid(id json.RawMessage, why string) *Error {
	if id == nil {
		id = null
	}
	return &Error{Code: CodeInvalidRequest, Message: "Invalid Request: " + why, IDs: []json.RawMessage{id}}
}

// Check checks one line (without its newline; surrounding white space is
// ignored). A blank line gives a zero Message and a nil error: skip it. A
// line that is not one valid JSON-RPC 2.0 Request or Response object gives
// an *Error to answer it with (see the package doc).
func Check(line []byte) (Message, error) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return Message{}, nil
	}
	var members map[string]json.RawMessage
	if t[0] == '{' && json.Unmarshal(t, &members) == nil { // the common case: one decoding pass
		return checkMembers(members)
	}
	if !json.Valid(t) {
		return Message{}, &Error{Code: CodeParseError, Message: "Parse error: the line is not JSON", IDs: []json.RawMessage{null}}
	}
	if t[0] == '[' {
		return Message{}, batchError(t)
	}
	return check(t)
}

// batchError is the answer to a batch (JSON-RPC 2.0 §6).
func batchError(t []byte) *Error {
	const why = "Invalid Request: batches are not supported (one JSON-RPC message per line)"
	var elems []json.RawMessage
	json.Unmarshal(t, &elems) // t is a valid JSON array
	e := &Error{Code: CodeInvalidRequest, Message: why, Batch: true}
	for _, raw := range elems {
		m, err := check(bytes.TrimSpace(raw))
		switch {
		case err != nil:
			e.IDs = append(e.IDs, err.(*Error).IDs...)
		case m.Kind == Call:
			e.IDs = append(e.IDs, m.ID)
		}
	}
	if len(e.IDs) == 0 {
		e.IDs, e.Batch = []json.RawMessage{null}, false
	}
	return e
}

// check checks one valid JSON value that is not a batch.
func check(t []byte) (Message, error) {
	var members map[string]json.RawMessage
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &members) != nil {
		return Message{}, Invalid(nil, "a message is a JSON object")
	}
	return checkMembers(members)
}

// checkMembers checks the members of one JSON object.
func checkMembers(members map[string]json.RawMessage) (Message, error) {
	m := Message{Members: members}
	raw, hasID := members["id"]
	if hasID {
		id := bytes.TrimSpace(raw)
		if len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
			return Message{}, Invalid(nil, fmt.Sprintf("id %s: an id is a string or a number", Excerpt(id)))
		}
		m.ID = id
	}
	if v := strings.TrimSpace(string(members["jsonrpc"])); v != `"2.0"` {
		return Message{}, Invalid(m.ID, `"jsonrpc" must be "2.0"`)
	}
	method, hasMethod := members["method"]
	_, hasResult := members["result"]
	_, hasError := members["error"]
	switch {
	case hasMethod:
		if json.Unmarshal(method, &m.Method) != nil || m.Method == "" {
			return Message{}, Invalid(m.ID, `"method" must be a non-empty string`)
		}
		if p, ok := members["params"]; ok {
			if p = bytes.TrimSpace(p); p[0] != '{' && p[0] != '[' {
				return Message{}, Invalid(m.ID, `"params" must be an object or an array`)
			}
		}
		m.Kind = Notification
		if hasID {
			m.Kind = Call
		}
	case hasID && hasResult != hasError:
		m.Kind = Response
	case hasID:
		return Message{}, Invalid(m.ID, `a response has exactly one of "result" and "error"`)
	default:
		return Message{}, Invalid(nil, `a message has a "method" (a request) or an "id" with a "result" or an "error" (a response)`)
	}
	return m, nil
}

// ExcerptBytes bounds what Excerpt keeps of a line.
const ExcerptBytes = 120

// Excerpt is line's first ExcerptBytes bytes, quoted as a Go string (so no
// control character reaches a log), with its length when it was cut.
func Excerpt(line []byte) string {
	if len(line) <= ExcerptBytes {
		return fmt.Sprintf("%q", line)
	}
	return fmt.Sprintf("%q… (%d bytes)", line[:ExcerptBytes], len(line))
}
