// Package linetest drives a newline-delimited JSON-RPC 2.0 server over its
// real stdio framing (pipes) with malformed lines, for the servers' tests:
// each line must be answered as JSON-RPC 2.0 says and the next valid
// request must still be served.
package linetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// Want is what a line must be answered with.
type Want struct {
	// IDs are the ids of the expected responses, as JSON text (`null`,
	// `1.5`, `"a"`); several for a batch. Empty: no response at all.
	IDs []string
	// Code is the error code every response holds; 0 means a result, and
	// AnyError any error.
	Code int
	// Batch says the responses come as one array.
	Batch bool
}

// AnyError is a Want.Code that accepts any JSON-RPC error.
const AnyError = 1

// Case is one input line and its expected answer.
type Case struct {
	Name string
	Line string
	Want Want
}

// Conn is a client end of a server's stdio: In is its stdin, the replies
// are read from its stdout.
type Conn struct {
	In      io.WriteCloser
	replies chan []byte
}

// NewConn starts reading the server's stdout out, one reply per line.
func NewConn(in io.WriteCloser, out io.Reader) *Conn {
	c := &Conn{In: in, replies: make(chan []byte, 64)}
	go func() {
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.replies <- line
			}
			if err != nil {
				close(c.replies)
				return
			}
		}
	}()
	return c
}

// Send writes line and a newline to the server's stdin.
func (c *Conn) Send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(c.In, line+"\n"); err != nil {
		t.Fatalf("write to the server: %v", err)
	}
}

// Reply is one response.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Line is one line of the server's output.
type Line struct {
	Replies []Reply
	// Batch says the line was an array.
	Batch bool
}

// Next returns the next reply line (one object, or a batch's array)
// within d; it fails the test when none comes or the server's stdout ends.
func (c *Conn) Next(t testing.TB, d time.Duration) Line {
	t.Helper()
	select {
	case line, ok := <-c.replies:
		if !ok {
			t.Fatal("the server's stdout ended")
		}
		var rs []Reply
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
			if err := json.Unmarshal(line, &rs); err != nil {
				t.Fatalf("reply %q: %v", line, err)
			}
			return Line{Replies: rs, Batch: true}
		}
		var r Reply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("reply %q is not a JSON-RPC response: %v", line, err)
		}
		return Line{Replies: []Reply{r}}
	case <-time.After(d):
		t.Fatalf("no reply within %v", d)
	}
	return Line{}
}

// Until reads replies until one is under id, and returns the others.
func (c *Conn) Until(t testing.TB, id string) (got Reply, others []Line) {
	t.Helper()
	for {
		l := c.Next(t, 10*time.Second)
		if !l.Batch && string(l.Replies[0].ID) == id {
			return l.Replies[0], others
		}
		others = append(others, l)
	}
}

// Run sends each case's line, then probe(id), a valid request under id,
// and checks that the case got the answer it wants (before the probe's or
// right after it) and the probe a result.
func (c *Conn) Run(t *testing.T, cases []Case, probe func(id string) string) {
	for i, tc := range cases {
		c.Send(t, tc.Line)
		id := fmt.Sprintf(`"probe-%d"`, i)
		c.Send(t, probe(id))
		got, others := c.Until(t, id)
		if got.Error != nil {
			t.Fatalf("%s: the next valid request failed: %+v", tc.Name, got.Error)
		}
		if len(tc.Want.IDs) > 0 && len(others) == 0 { // served concurrently, answered after the probe
			others = append(others, c.Next(t, 10*time.Second))
		}
		if err := tc.Want.check(others); err != nil {
			t.Errorf("%s: line %.200q: %v", tc.Name, tc.Line, err)
		}
	}
}

// check compares the replies a case got with w.
func (w Want) check(got []Line) error {
	if len(w.IDs) == 0 {
		if len(got) > 0 {
			return fmt.Errorf("want no reply, got %+v", got)
		}
		return nil
	}
	if len(got) != 1 || got[0].Batch != w.Batch {
		return fmt.Errorf("want %d response(s) (batch %v), got %+v", len(w.IDs), w.Batch, got)
	}
	var ids []string
	for _, r := range got[0].Replies {
		ids = append(ids, string(r.ID))
		switch {
		case w.Code == 0 && r.Error != nil:
			return fmt.Errorf("want a result, got error %+v", *r.Error)
		case w.Code != 0 && r.Error == nil:
			return fmt.Errorf("want error %d, got result %s", w.Code, r.Result)
		case w.Code != 0 && w.Code != AnyError && r.Error.Code != w.Code:
			return fmt.Errorf("want error %d, got %+v", w.Code, *r.Error)
		case r.Error != nil && strings.TrimSpace(r.Error.Message) == "":
			return fmt.Errorf("error %d without a message", r.Error.Code)
		}
	}
	if !slices.Equal(ids, w.IDs) {
		return fmt.Errorf("answered under ids %v, want %v", ids, w.IDs)
	}
	return nil
}
