package message

import "unsafe"

// Checker validates one history as it grows, so that a turn checks what
// it appended rather than the whole history: Validate of a history that
// is the array last validated, appended to, starts at the last assistant
// message of the part already checked (where every sequence rule's state
// starts afresh) instead of at the first message. Callers keep the rule
// journal.Hashes relies on: messages are never edited in place in the
// fields the rules read (role, content emptiness, tool-call ids); a
// changed history is a new array. The zero value is ready to use; it is
// not safe for concurrent use.
type Checker struct {
	last *Message // the array of the history last found valid
	n    int      // its length then
	tail Message  // its last message then, compared as a guard
}

// Validate returns what Validate(h) returns, at the cost of the messages
// appended since the last valid history when h is that history's array
// appended to.
func (c *Checker) Validate(h []Message) error {
	from := 0
	if c.n > 0 && len(h) >= c.n && unsafe.SliceData(h) == c.last && sameRuleFields(&h[c.n-1], &c.tail) {
		from = lastAssistant(h[:c.n])
	}
	if err := validateFrom(h, from); err != nil {
		c.n = 0
		return err
	}
	c.last, c.n = unsafe.SliceData(h), len(h)
	if len(h) > 0 {
		c.tail = h[len(h)-1]
	}
	return nil
}

// lastAssistant is the index of the last assistant message of h, or 0
// when it has none.
func lastAssistant(h []Message) int {
	for i := len(h) - 1; i > 0; i-- {
		if h[i].Role == RoleAssistant {
			return i
		}
	}
	return 0
}

// sameRuleFields reports whether a and b agree in every field Validate
// reads.
func sameRuleFields(a, b *Message) bool {
	if a.Role != b.Role || (a.Content == "") != (b.Content == "") || a.ToolCallID != b.ToolCallID || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i].ID != b.ToolCalls[i].ID {
			return false
		}
	}
	return true
}
