package session

import (
	"bytes"
	"encoding/json"
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
	// Lineage is the lineage member's JSON, undecoded (decodeLineage).
	Lineage json.RawMessage `json:"lineage"`
}

// parseHead decodes head, the bytes of a file before chat_history's
// leading comma, into w. It reads only the exact bytes encode writes:
// `{"version":N` then `,\n"key":value` for title, created_at, updated_at,
// revision and message_count, then optionally transcript_id, journal_pos
// and lineage (a valid JSON object, kept undecoded), in that order and
// nothing else. Its answer is then the one json.Unmarshal of head plus
// "}" gives (the fallback: decodeHead).
// It reports false for any other bytes, leaving w partly set.
func parseHead(head []byte, w *headMembers) bool {
	p := headParser{b: head}
	var version, count int64
	var ok bool
	if !p.lit(`{"version":`) {
		return false
	}
	if version, ok = p.int(); !ok || !p.key("title") || !p.str(&w.Title) ||
		!p.key("created_at") || !p.time(&w.CreatedAt) ||
		!p.key("updated_at") || !p.time(&w.UpdatedAt) || !p.key("revision") {
		return false
	}
	if w.Revision, ok = p.int(); !ok || !p.key("message_count") {
		return false
	}
	if count, ok = p.int(); !ok {
		return false
	}
	w.Version, w.MessageCount = int(version), int(count)
	if p.key("transcript_id") && !p.str(&w.TranscriptID) {
		return false
	}
	if p.key("journal_pos") && !p.pos(&w.JournalPos) {
		return false
	}
	if p.key("lineage") {
		start := p.i
		if !p.object() || !json.Valid(p.b[start:p.i]) {
			return false
		}
		w.Lineage = p.b[start:p.i]
	}
	return p.done()
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
	// s is b as a string when the strings parsed may be substrings of it
	// (parseListIndex: one copy of the index instead of one per string);
	// "" copies each string.
	s string
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

// int consumes a JSON integer that fits in an int64 and in an int: what
// json.Unmarshal reads into an integer field (it refuses a fraction or an
// exponent there). Values past an int's range are only on 32-bit
// platforms, where they are refused.
func (p *headParser) int() (int64, bool) {
	neg := p.i < len(p.b) && p.b[p.i] == '-'
	j := p.i
	if neg {
		j++
	}
	u, end, ok := digits(p.b, j)
	if !ok || u > 1<<63-1+b2u(neg) {
		return 0, false
	}
	n := int64(u)
	if neg {
		n = -n // -(1<<63) wraps to itself
	}
	if int64(int(n)) != n {
		return 0, false
	}
	p.i = end
	return n, true
}

// uint consumes a JSON integer that fits in a uint64.
func (p *headParser) uint() (uint64, bool) {
	u, end, ok := digits(p.b, p.i)
	if ok {
		p.i = end
	}
	return u, ok
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// digits reads the digits of a JSON integer at b[i:] (no leading zero,
// no fraction or exponent after them) as a uint64, and returns the
// position after them; ok is false for anything else or an overflow.
func digits(b []byte, i int) (u uint64, end int, ok bool) {
	j := i
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		d := uint64(b[j] - '0')
		if u > (1<<64-1-d)/10 {
			return 0, 0, false
		}
		u = u*10 + d
	}
	if j == i || (b[i] == '0' && j > i+1) || (j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E')) {
		return 0, 0, false
	}
	return u, j, true
}

// rawString consumes a JSON string and returns the offsets of the bytes
// between its quotes, and whether they hold an escape.
func (p *headParser) rawString() (start, end int, escaped, ok bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return 0, 0, false, false
	}
	start = p.i + 1
	for j := start; ; {
		k := bytes.IndexByte(p.b[j:], '"')
		if k < 0 {
			return 0, 0, false, false
		}
		end = j + k
		n := 0 // the backslashes before the quote
		for n < end-start && p.b[end-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			break
		}
		j = end + 1 // an escaped quote
	}
	for _, c := range p.b[start:end] {
		if c < 0x20 {
			return 0, 0, false, false
		}
		if c == '\\' {
			escaped = true
		}
	}
	p.i = end + 1
	return start, end, escaped, true
}

// object consumes a JSON object, nested objects and arrays included,
// without decoding it: brackets are matched outside strings, and strings
// are read by rawString. The bytes are checked as JSON by whoever decodes
// them (json.Unmarshal).
func (p *headParser) object() bool {
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false
	}
	depth := 0
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '"':
			if _, _, _, ok := p.rawString(); !ok {
				return false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				p.i++
				return true
			}
		}
		p.i++
	}
	return false
}

// str consumes a JSON string into *s: directly when it is valid UTF-8
// without escapes, else through json.Unmarshal of the string alone (which
// unescapes, and replaces invalid UTF-8 with U+FFFD, as a decode of the
// whole header would).
func (p *headParser) str(s *string) bool {
	at := p.i
	start, end, escaped, ok := p.rawString()
	if !ok {
		return false
	}
	if !escaped && utf8.Valid(p.b[start:end]) {
		if p.s != "" {
			*s = p.s[start:end]
		} else {
			*s = string(p.b[start:end])
		}
		return true
	}
	var v string // s itself stays off the heap
	if json.Unmarshal(p.b[at:p.i], &v) != nil {
		return false
	}
	*s = v
	return true
}

// time consumes a JSON string holding an RFC 3339 time into *t, as
// time.Time's UnmarshalJSON reads it: the bytes between the quotes, not
// unescaped, parsed strictly (utcTime first, for the form encode writes).
func (p *headParser) time(t *time.Time) bool {
	start, end, escaped, ok := p.rawString()
	if !ok || escaped {
		return false
	}
	if u, ok := utcTime(p.b[start:end]); ok {
		*t = u
		return true
	}
	return t.UnmarshalText(p.b[start:end]) == nil
}

// utcTime reads b when it is in the form time.RFC3339Nano gives a UTC
// time, "2006-01-02T15:04:05.999999999Z" (one to nine digits of fraction,
// or none), to the time time.Time's UnmarshalText gives; ok is false for
// any other text, which may still be a time UnmarshalText reads.
func utcTime(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' || b[len(b)-1] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day, hour, minute, sec := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)
	nsec := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		if len(frac) < 2 || len(frac) > 10 || frac[0] != '.' {
			return time.Time{}, false
		}
		if nsec = num(20, len(frac)-1); nsec < 0 {
			return time.Time{}, false
		}
		for range 10 - len(frac) {
			nsec *= 10
		}
	}
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // past the month's end
		return time.Time{}, false
	}
	return t, true
}
