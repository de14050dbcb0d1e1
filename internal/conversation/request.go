package conversation

import (
	"slices"
	"unsafe"

	"github.com/chatcli/chatcli/internal/message"
)

// requestCache keeps message.Request of the live history from one request
// to the next, so that a turn converts only the messages appended since
// the last request instead of copying the whole history again. It relies
// on the rule journal.Hashes relies on: the engine never edits a message
// of its history in place, except for meta fields Request drops; it
// appends to the history's array or replaces the history with a new one.
// The zero value is ready to use.
type requestCache struct {
	base *message.Message // array of the history last converted
	n    int              // messages of it converted
	last message.Message  // its message n-1, as converted
	// Request(h[:n]) is out; h[from:n] is the run of user messages at its
	// end (from == n when it ends with another role), which became
	// out[outFrom:]: a user message appended next merges into it, so it
	// is converted again with what follows.
	out           []message.Message
	from, outFrom int
}

// of returns message.Request(h). The slice is shared with the cache and
// clipped: callers must not change its messages (appending is safe).
func (c *requestCache) of(h []message.Message) []message.Message {
	from, outFrom := 0, 0
	if n := c.n; n > 0 && len(h) >= n && unsafe.SliceData(h) == c.base && samePrefixEnd(&h[n-1], &c.last) {
		from, outFrom = c.from, c.outFrom
	}
	out := append(c.out[:outFrom], message.Request(h[from:])...)
	c.base, c.n, c.out = unsafe.SliceData(h), len(h), out
	if len(h) > 0 {
		c.last = h[len(h)-1]
	}
	c.from, c.outFrom = len(h), len(out)
	for c.from > 0 && h[c.from-1].Role == message.RoleUser {
		c.from--
	}
	if c.from < len(h) {
		c.outFrom = len(out) - 1 // a run of user messages is one message of the request
	}
	return slices.Clip(out)
}

// samePrefixEnd reports whether a still is the message b was when it was
// converted: the fields Request reads (strings compared by content, which
// for an unchanged message is a pointer comparison).
func samePrefixEnd(a, b *message.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID &&
		len(a.ToolCalls) == len(b.ToolCalls) && len(a.Images) == len(b.Images) && a.Meta == b.Meta
}
