package conversation

import (
	"unsafe"

	"github.com/chatcli/chatcli/internal/message"
)

// modeScan finds the last mode message (the system message a mode starts
// with) of a history as it grows: a history that is the array last
// scanned, appended to, is scanned only in its new messages. It keeps the
// rule message.Checker keeps: messages are never edited in place.
type modeScan struct {
	last *message.Message // the array last scanned
	n    int              // its length then
	at   int              // index of its last mode message, or -1
}

// find returns the index of the last mode message of h, or -1.
func (m *modeScan) find(h []message.Message) int {
	from, at := 0, -1
	if m.n > 0 && len(h) >= m.n && unsafe.SliceData(h) == m.last {
		from, at = m.n, m.at
	}
	for i := len(h) - 1; i >= from; i-- {
		if isModeMessage(&h[i]) {
			at = i
			break
		}
	}
	m.last, m.n, m.at = unsafe.SliceData(h), len(h), at
	return at
}

// isModeMessage reports whether m is the system message of a mode.
func isModeMessage(m *message.Message) bool {
	return m.Role == message.RoleSystem && m.Meta != nil && modePrompts[m.Meta.Mode] == m.Content
}
