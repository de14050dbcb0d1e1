package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/journal"
)

// headMembers is the header a file in chatcli's layout starts with: the
// members before chat_history, as encode writes them.
type headMembers struct {
	Version      int         `json:"version"`
	Title        string      `json:"title"`
	CreatedAt    time.Time   `json:"created_at"`
	UpdatedAt    time.Time   `json:"updated_at"`
	Revision     int64       `json:"revision"`
	MessageCount int         `json:"message_count"`
	TranscriptID string      `json:"transcript_id"`
	JournalPos   journal.Pos `json:"journal_pos"`
}

// parseHead decodes head, the bytes of a file before chat_history's
// leading comma, into w. It reads only the exact bytes encode writes:
// `{"version":N` then `,\n"key":value` for title, created_at, updated_at,
// revision and message_count, then optionally transcript_id and
// journal_pos, in that order and nothing else. Its answer is then the
// one json.Unmarshal of head plus "}" gives (the fallback: decodeHead).
// It reports false for any other bytes, leaving w partly set.
func parseHead(head []byte, w *headMembers) bool {
	p := headParser{b: head}
	if !p.lit(`{"version":`) || !p.int(func(n int64) { w.Version = int(n) }) ||
		!p.key("title") || !p.str(&w.Title) ||
		!p.key("created_at") || !p.time(&w.CreatedAt) ||
		!p.key("updated_at") || !p.time(&w.UpdatedAt) ||
		!p.key("revision") || !p.int(func(n int64) { w.Revision = n }) ||
		!p.key("message_count") || !p.int(func(n int64) { w.MessageCount = int(n) }) {
		return false
	}
	if p.done() {
		return true
	}
	if !p.key("transcript_id") || !p.str(&w.TranscriptID) {
		return false
	}
	if p.done() {
		return true
	}
	return p.key("journal_pos") && p.lit(`{"seq":`) && p.int(func(n int64) { w.JournalPos.Seq = n }) &&
		p.lit(`,"offset":`) && p.int(func(n int64) { w.JournalPos.Offset = n }) &&
		p.lit(`,"line":`) && p.int(func(n int64) { w.JournalPos.Line = int(n) }) && p.lit("}") && p.done()
}

// decodeHead is parseHead with encoding/json's decode of head as the
// fallback for bytes in any other shape. It reports whether head is a
// JSON object whose members decode into w.
func decodeHead(head []byte, w *headMembers) bool {
	if parseHead(head, w) {
		return true
	}
	var v headMembers // w itself stays off the heap
	if json.Unmarshal(append(head[:len(head):len(head)], '}'), &v) != nil {
		return false
	}
	*w = v
	return true
}

// headParser walks the bytes of a header left to right.
type headParser struct {
	b []byte
	i int
}

func (p *headParser) done() bool { return p.i == len(p.b) }

// lit consumes s.
func (p *headParser) lit(s string) bool {
	if !bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		return false
	}
	p.i += len(s)
	return true
}

// key consumes `,\n"name":`.
func (p *headParser) key(name string) bool {
	b := p.b[p.i:]
	if len(b) < len(name)+5 || b[0] != ',' || b[1] != '\n' || b[2] != '"' ||
		string(b[3:3+len(name)]) != name || b[3+len(name)] != '"' || b[4+len(name)] != ':' {
		return false
	}
	p.i += len(name) + 5
	return true
}

// int consumes a JSON integer (no fraction or exponent: json.Unmarshal
// refuses those for an integer field) that fits in 64 bits, and gives it
// to set. Values past an int's range are only on 32-bit platforms, where
// they are refused.
func (p *headParser) int(set func(int64)) bool {
	j := p.i
	if j < len(p.b) && p.b[j] == '-' {
		j++
	}
	start := j
	for j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9' {
		j++
	}
	if j == start || (p.b[start] == '0' && j > start+1) {
		return false
	}
	if j < len(p.b) && (p.b[j] == '.' || p.b[j] == 'e' || p.b[j] == 'E') {
		return false
	}
	n, err := strconv.ParseInt(string(p.b[p.i:j]), 10, 64)
	if err != nil || int64(int(n)) != n {
		return false
	}
	set(n)
	p.i = j
	return true
}

// rawString consumes a JSON string and returns the bytes between its
// quotes, and whether they hold an escape.
func (p *headParser) rawString() (raw []byte, escaped, ok bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false, false
	}
	for j := p.i + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			raw, p.i = p.b[p.i+1:j], j+1
			return raw, escaped, true
		case c == '\\':
			escaped = true
			j++ // the escaped byte is never the closing quote
		case c < 0x20:
			return nil, false, false
		}
	}
	return nil, false, false
}

// str consumes a JSON string into *s: directly when it is valid UTF-8
// without escapes, else through json.Unmarshal of the string alone (which
// unescapes, and replaces invalid UTF-8 with U+FFFD, as a decode of the
// whole header would).
func (p *headParser) str(s *string) bool {
	start := p.i
	raw, escaped, ok := p.rawString()
	if !ok {
		return false
	}
	if !escaped && utf8.Valid(raw) {
		*s = string(raw)
		return true
	}
	var v string // s itself stays off the heap
	if json.Unmarshal(p.b[start:p.i], &v) != nil {
		return false
	}
	*s = v
	return true
}

// time consumes a JSON string holding an RFC 3339 time into *t, as
// time.Time's UnmarshalJSON reads it: the bytes between the quotes, not
// unescaped, parsed strictly.
func (p *headParser) time(t *time.Time) bool {
	raw, escaped, ok := p.rawString()
	return ok && !escaped && t.UnmarshalText(raw) == nil
}
