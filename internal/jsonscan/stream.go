package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// DefaultStreamBufBytes is the read buffer NewStream allocates when it is
// given none.
const DefaultStreamBufBytes = 64 << 10

// maxKeyBytes bounds the member names Key decodes; a longer name comes back
// as "" (no caller looks for one).
const maxKeyBytes = 1 << 10

// maxEmptyReads is how many (0, nil) results of Read a Stream accepts in a
// row before it fails with io.ErrNoProgress.
const maxEmptyReads = 100

// errMisuse is returned for calls out of order (More outside a container,
// End inside one): a bug of the caller, not of the document.
var errMisuse = errors.New("jsonscan: stream call out of order")

// Stream reads one JSON document from an io.Reader through a buffer of
// fixed size, so its memory does not depend on the document's size, and
// walks it value by value without decoding: Enter a container, More to
// step to its next member or element, Key for a member's name, then Skip or
// Raw for the value; End once the document is over.
//
// Outside strings the whole grammar is checked (brackets, commas, colons,
// member names, the literals true, false and null, numbers); inside a
// string only its end is looked for, as in the rest of the package: escape
// sequences, control bytes and UTF-8 are not checked. Strings are skipped
// with bytes.IndexByte, at memory speed. Errors wrap ErrSyntax and give the
// byte offset in the document (a document cut short says it ends early);
// an error of the reader is returned wrapped, with the offset it was met
// at. After an error the Stream must not be used again.
type Stream struct {
	r    io.Reader
	buf  []byte
	i, n int   // buf[i:n] is read and not yet consumed
	off  int64 // document offset of buf[0]
	rerr error // the reader's error (io.EOF at the end) once it returned one

	open  []byte // containers entered and not yet left: '{' or '['
	first bool   // the innermost container has had no member or element yet

	// Raw's capture: bytes from buf[capFrom:] on are appended to capDst
	// (at most capMax in all) as the buffer is refilled.
	capOn   bool
	capFrom int
	capDst  []byte
	capMax  int
	capCut  bool
	keyBuf  []byte
}

// NewStream returns a Stream reading r through buf (its whole length is
// used; DefaultStreamBufBytes are allocated when buf is shorter than 64
// bytes). The caller may reuse buf once it is done with the Stream.
func NewStream(r io.Reader, buf []byte) *Stream {
	if len(buf) < 64 {
		buf = make([]byte, DefaultStreamBufBytes)
	}
	return &Stream{r: r, buf: buf}
}

// Offset is the document offset, in bytes, of the next byte to be read.
func (s *Stream) Offset() int64 { return s.off + int64(s.i) }

// fill makes buf[i:n] non-empty, reading once what was there is consumed.
// It returns false at the end of the input or on a read error (s.rerr).
func (s *Stream) fill() bool {
	if s.i < s.n {
		return true
	}
	if s.rerr != nil {
		return false
	}
	if s.capOn {
		s.capture(s.n)
		s.capFrom = 0
	}
	s.off += int64(s.n)
	s.i, s.n = 0, 0
	for empty := 0; s.rerr == nil; empty++ {
		if empty == maxEmptyReads {
			s.rerr = io.ErrNoProgress
			break
		}
		n, err := s.r.Read(s.buf)
		s.n, s.rerr = n, err
		if n > 0 {
			return true
		}
	}
	return false
}

// endErr is the error for input that ended where more was needed.
func (s *Stream) endErr() error {
	if s.rerr == io.EOF {
		return i18n.Errorf("%w: the document ends early (byte %d)", ErrSyntax, s.Offset())
	}
	return fmt.Errorf("jsonscan: read at byte %d: %w", s.Offset(), s.rerr)
}

func (s *Stream) syntax(what i18n.Text, at int64) error {
	return i18n.Errorf("%w: %s at byte %d", ErrSyntax, what, at)
}

// wantCommaOr is what is wanted after a member or an element of the
// container closed by closer.
func wantCommaOr(closer byte) i18n.Text {
	if closer == '}' {
		return i18n.Textf("want ',' or '}'")
	}
	return i18n.Textf("want ',' or ']'")
}

// Peek returns the next byte that is not JSON white space, without
// consuming it: '{', '[', '"', a digit, … tell the kind of the next value.
func (s *Stream) Peek() (byte, error) {
	for {
		for k, c := range s.buf[s.i:s.n] {
			if c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t' {
				s.i += k
				return c, nil
			}
		}
		s.i = s.n
		if !s.fill() {
			return 0, s.endErr()
		}
	}
}

// Enter consumes the '{' or '[' that opens the next value and returns it;
// any other value is an error.
func (s *Stream) Enter() (byte, error) {
	c, err := s.Peek()
	if err != nil {
		return 0, err
	}
	if c != '{' && c != '[' {
		return 0, s.syntax(i18n.Textf("want an object or an array"), s.Offset())
	}
	s.i++
	s.open = append(s.open, c)
	s.first = true
	return c, nil
}

// Depth is the number of containers entered and not yet left.
func (s *Stream) Depth() int { return len(s.open) }

// More steps to the next member or element of the innermost container
// entered: true when there is one (read it with Key, for an object, then
// Skip or Raw), false when the container is over (its closing byte is
// consumed and it is left).
func (s *Stream) More() (bool, error) {
	if len(s.open) == 0 {
		return false, errMisuse
	}
	c, err := s.Peek()
	if err != nil {
		return false, err
	}
	closer := byte(']')
	if s.open[len(s.open)-1] == '{' {
		closer = '}'
	}
	switch {
	case c == closer:
		s.i++
		s.open = s.open[:len(s.open)-1]
		s.first = false
		return false, nil
	case s.first:
		s.first = false
		return true, nil
	case c == ',':
		s.i++
		return true, nil
	}
	return false, s.syntax(wantCommaOr(closer), s.Offset())
}

// Key reads a member name and the ':' after it, and returns the name
// decoded; a name longer than 1 KiB comes back as "".
func (s *Stream) Key() (string, error) { return s.KeyUpTo(maxKeyBytes) }

// KeyUpTo is Key for names of up to maxBytes bytes as written (quotes and
// escapes included); a longer name comes back as "".
func (s *Stream) KeyUpTo(maxBytes int) (string, error) {
	c, err := s.Peek()
	if err != nil {
		return "", err
	}
	at := s.Offset()
	if c != '"' {
		return "", s.syntax(i18n.Textf("want a member name"), at)
	}
	raw, cut, err := s.capturing(s.keyBuf[:0], maxBytes, func() error { s.i++; return s.skipString() })
	s.keyBuf = raw[:0]
	if err != nil {
		return "", err
	}
	if err := s.colon(); err != nil {
		return "", err
	}
	if cut {
		return "", nil
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return internKey(raw[1 : len(raw)-1]), nil
	}
	var key string
	if err := json.Unmarshal(raw, &key); err != nil {
		return "", s.syntax(i18n.Textf("bad member name"), at)
	}
	return key, nil
}

// internKey returns name as a string, without allocating for the member
// names every message of a session file repeats (a listing reads them
// for each message).
func internKey(name []byte) string {
	switch string(name) {
	case "role":
		return "role"
	case "content":
		return "content"
	case "meta":
		return "meta"
	case "tool_calls":
		return "tool_calls"
	case "tool_call_id":
		return "tool_call_id"
	case "images":
		return "images"
	case "is_error":
		return "is_error"
	case "is_summary":
		return "is_summary"
	case "summary_of":
		return "summary_of"
	case "mode":
		return "mode"
	case "id":
		return "id"
	case "type":
		return "type"
	case "name":
		return "name"
	case "arguments":
		return "arguments"
	}
	return string(name)
}

// colon consumes the ':' after a member name.
func (s *Stream) colon() error {
	c, err := s.Peek()
	if err != nil {
		return err
	}
	if c != ':' {
		return s.syntax(i18n.Textf("want ':'"), s.Offset())
	}
	s.i++
	return nil
}

// Skip consumes the next value whole, checking it as the Stream checks
// everything (see Stream).
func (s *Stream) Skip() error {
	base := len(s.open)
	want := wantValue
	for {
		c, err := s.Peek()
		if err != nil {
			return err
		}
		switch want {
		case wantValue:
			switch c {
			case '{', '[':
				s.i++
				s.open = append(s.open, c)
				want = wantFirst
				continue
			case '"':
				s.i++
				err = s.skipString()
			default:
				err = s.scalar(c)
			}
			if err != nil {
				return err
			}
		case wantFirst: // just after '{' or '['
			top := s.open[len(s.open)-1]
			if c != top+2 { // '{'+2 is '}', '['+2 is ']'
				want = wantValue
				if top == '{' {
					want = wantKey
				}
				continue
			}
			s.i++
			s.open = s.open[:len(s.open)-1]
		case wantKey:
			if c != '"' {
				return s.syntax(i18n.Textf("want a member name"), s.Offset())
			}
			s.i++
			if err := s.skipString(); err != nil {
				return err
			}
			want = wantColon
			continue
		case wantColon:
			if c != ':' {
				return s.syntax(i18n.Textf("want ':'"), s.Offset())
			}
			s.i++
			want = wantValue
			continue
		case wantNext: // after a value inside a container
			top := s.open[len(s.open)-1]
			switch c {
			case ',':
				s.i++
				want = wantValue
				if top == '{' {
					want = wantKey
				}
				continue
			case top + 2:
				s.i++
				s.open = s.open[:len(s.open)-1]
			default:
				return s.syntax(wantCommaOr(top+2), s.Offset())
			}
		}
		// A value is complete.
		if len(s.open) == base {
			s.first = false
			return nil
		}
		want = wantNext
	}
}

// What Skip expects next.
const (
	wantValue = iota
	wantFirst // a member, an element or the end, just after '{' or '['
	wantKey
	wantColon
	wantNext // ',' or the end of the container
)

// Raw consumes the next value like Skip and returns dst with the value's
// bytes appended, at most maxBytes of them: cut reports a longer value, of
// which dst then holds the first maxBytes bytes.
func (s *Stream) Raw(dst []byte, maxBytes int) (out []byte, cut bool, err error) {
	if _, err := s.Peek(); err != nil {
		return dst, false, err
	}
	return s.capturing(dst, maxBytes, s.Skip)
}

// capturing runs consume, which reads from the next byte on, and returns
// the bytes it consumed appended to dst (at most maxBytes of them).
func (s *Stream) capturing(dst []byte, maxBytes int, consume func() error) ([]byte, bool, error) {
	limit := math.MaxInt // len(dst)+maxBytes, without overflow
	if maxBytes < math.MaxInt-len(dst) {
		limit = len(dst) + maxBytes
	}
	s.capOn, s.capFrom, s.capDst, s.capMax, s.capCut = true, s.i, dst, limit, false
	err := consume()
	s.capture(s.i)
	out, cut := s.capDst, s.capCut
	s.capOn, s.capDst = false, nil
	return out, cut, err
}

// capture appends buf[capFrom:end] to the capture, within its bound.
func (s *Stream) capture(end int) {
	chunk := s.buf[s.capFrom:end]
	if room := s.capMax - len(s.capDst); len(chunk) > room {
		chunk, s.capCut = chunk[:max(room, 0)], true
	}
	s.capDst = append(s.capDst, chunk...)
	s.capFrom = end
}

// End checks that nothing but white space follows the document.
func (s *Stream) End() error {
	if len(s.open) > 0 {
		return errMisuse
	}
	for {
		for ; s.i < s.n; s.i++ {
			switch s.buf[s.i] {
			case ' ', '\n', '\r', '\t':
			default:
				return s.syntax(i18n.Textf("unexpected data after the document"), s.Offset())
			}
		}
		if !s.fill() {
			if s.rerr == io.EOF {
				return nil
			}
			return s.endErr()
		}
	}
}

// scalar consumes the literal or number starting with c.
func (s *Stream) scalar(c byte) error {
	switch {
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return s.syntax(i18n.Textf("want a value"), s.Offset())
}

// skipString consumes a string whose opening quote was consumed. It jumps
// from quote to quote with bytes.IndexByte and treats a quote after an odd
// run of backslashes as escaped, carrying an escape across a refill.
func (s *Stream) skipString() error {
	start := s.Offset() - 1
	escaped := false // the first byte of the next chunk is escaped
	for {
		if !s.fill() {
			if s.rerr == io.EOF {
				return i18n.Errorf("%w: unterminated string starting at byte %d", ErrSyntax, start)
			}
			return s.endErr()
		}
		seg := s.buf[s.i:s.n]
		from := 0
		if escaped {
			from, escaped = 1, false
		}
		for {
			j := bytes.IndexByte(seg[from:], '"')
			if j < 0 {
				escaped = oddBackslashes(seg, from, len(seg))
				s.i = s.n
				break
			}
			q := from + j
			if !oddBackslashes(seg, from, q) {
				s.i += q + 1
				return nil
			}
			from = q + 1
		}
	}
}

// oddBackslashes reports whether b[from:to] ends with an odd number of
// backslashes.
func oddBackslashes(b []byte, from, to int) bool {
	k := to
	for k > from && b[k-1] == '\\' {
		k--
	}
	return (to-k)%2 == 1
}

// literal consumes the literal word (true, false or null).
func (s *Stream) literal(word string) error {
	at := s.Offset()
	for k := 0; k < len(word); k++ {
		if !s.fill() {
			return s.endErr()
		}
		if s.buf[s.i] != word[k] {
			return s.syntax(i18n.Textf("invalid literal"), at)
		}
		s.i++
	}
	return nil
}

// number consumes a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// (RFC 8259 §6).
func (s *Stream) number() error {
	at := s.Offset()
	s.next('-')
	if !s.next('0') && s.digits() == 0 { // one zero, or digits not led by one
		return s.syntax(i18n.Textf("invalid number"), at)
	}
	if s.next('.') && s.digits() == 0 {
		return s.syntax(i18n.Textf("invalid number"), at)
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		if s.digits() == 0 {
			return s.syntax(i18n.Textf("invalid number"), at)
		}
	}
	return nil
}

// next consumes the next byte when it is c.
func (s *Stream) next(c byte) bool {
	if s.fill() && s.buf[s.i] == c {
		s.i++
		return true
	}
	return false
}

// digits consumes a run of decimal digits and returns its length.
func (s *Stream) digits() int {
	n := 0
	for s.fill() {
		c := s.buf[s.i]
		if c < '0' || c > '9' {
			break
		}
		s.i++
		n++
	}
	return n
}

// Count returns the number of elements of the JSON array that is the whole
// of r's content, read through buf (see NewStream), checked as a Stream
// checks (see Stream). Errors wrap ErrSyntax for a document that is not an
// array, is cut short or is malformed, or wrap the reader's error.
func Count(r io.Reader, buf []byte) (int, error) {
	s := NewStream(r, buf)
	c, err := s.Enter()
	if err != nil {
		return 0, err
	}
	if c != '[' {
		return 0, s.syntax(i18n.Textf("want an array"), s.Offset()-1)
	}
	n := 0
	for {
		more, err := s.More()
		if err != nil {
			return n, err
		}
		if !more {
			break
		}
		if err := s.Skip(); err != nil {
			return n, err
		}
		n++
	}
	return n, s.End()
}
