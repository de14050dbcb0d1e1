package session

// A byte-level check of a message's tool_calls and images, for listing:
// it tells, without decoding anything, that json.Unmarshal of the value
// into []message.ToolCall or []message.Image succeeds (what Load does),
// for the shapes chatcli and ChatCLI write. Any other shape is left to
// json.Unmarshal (checkMember).

// toolCallStrings and imageStrings are the members of a tool call and an
// image that Load decodes as a string (or null); the others are taken as
// any value: a tool call's arguments, and members Load keeps as they are.
var (
	toolCallStrings = map[string]bool{"id": true, "type": true, "name": true, "arguments_text": true}
	imageStrings    = map[string]bool{"media_type": true, "data": true, "url": true, "file_name": true}
)

// surelyDecodes reports whether raw, a JSON array whose grammar outside
// strings a jsonscan.Stream has checked, certainly decodes as a list of
// objects whose members named in strs are strings or null (the others may
// be any value). Elements may be strings when strElems (an image's URL
// form). It reports false whenever it cannot tell: an escape
// in a member name, a name matching a known one in another case (which
// encoding/json would match), a null element, any other kind of value
// where a string is wanted. Every string in raw is checked as
// encoding/json checks it: no control bytes, escapes that exist.
func surelyDecodes(raw []byte, strs map[string]bool, strElems bool) bool {
	v := valueScan{b: raw}
	if !v.lit('[') {
		return false
	}
	if v.lit(']') {
		return v.end()
	}
	for {
		switch v.peek() {
		case '"':
			if !strElems || !v.str() {
				return false
			}
		case '{':
			if !v.object(strs) {
				return false
			}
		default:
			return false
		}
		if v.lit(']') {
			return v.end()
		}
		if !v.lit(',') {
			return false
		}
	}
}

// valueScan walks raw JSON text.
type valueScan struct {
	b []byte
	i int
}

func (v *valueScan) space() {
	for v.i < len(v.b) && (v.b[v.i] == ' ' || v.b[v.i] == '\t' || v.b[v.i] == '\n' || v.b[v.i] == '\r') {
		v.i++
	}
}

func (v *valueScan) peek() byte {
	v.space()
	if v.i < len(v.b) {
		return v.b[v.i]
	}
	return 0
}

// lit consumes c after spaces.
func (v *valueScan) lit(c byte) bool {
	if v.peek() != c {
		return false
	}
	v.i++
	return true
}

func (v *valueScan) end() bool { v.space(); return v.i == len(v.b) }

// object consumes an object whose members named in strs are strings or
// null.
func (v *valueScan) object(strs map[string]bool) bool {
	v.i++ // '{'
	if v.lit('}') {
		return true
	}
	for {
		if v.peek() != '"' {
			return false
		}
		start := v.i + 1
		if !v.str() {
			return false
		}
		name := v.b[start : v.i-1]
		for _, c := range name {
			// encoding/json matches names in any case (with Unicode's
			// folds): names in lower-case ASCII match only themselves.
			if c == '\\' || c >= 'A' && c <= 'Z' || c >= 0x80 {
				return false
			}
		}
		if !v.lit(':') {
			return false
		}
		switch {
		case strs[string(name)]:
			if c := v.peek(); c == '"' {
				if !v.str() {
					return false
				}
			} else if !v.null() {
				return false
			}
		default: // arguments, or a member Load keeps as it is
			if !v.value(0) {
				return false
			}
		}
		if v.lit('}') {
			return true
		}
		if !v.lit(',') {
			return false
		}
	}
}

func (v *valueScan) null() bool {
	if v.peek() != 'n' || len(v.b)-v.i < 4 || string(v.b[v.i:v.i+4]) != "null" {
		return false
	}
	v.i += 4
	return true
}

// maxValueDepth bounds the nesting value follows (encoding/json's own
// bound is 10,000).
const maxValueDepth = 512

// value consumes any JSON value, checking its strings.
func (v *valueScan) value(depth int) bool {
	if depth > maxValueDepth {
		return false
	}
	switch c := v.peek(); c {
	case '"':
		return v.str()
	case '{', '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		v.i++
		if v.lit(closer) {
			return true
		}
		for {
			if c == '{' {
				if v.peek() != '"' || !v.str() || !v.lit(':') {
					return false
				}
			}
			if !v.value(depth + 1) {
				return false
			}
			if v.lit(closer) {
				return true
			}
			if !v.lit(',') {
				return false
			}
		}
	case 0:
		return false
	}
	// A literal or a number, which the Stream checked: up to the next
	// delimiter.
	start := v.i
	for v.i < len(v.b) {
		switch v.b[v.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return v.i > start
		case '"', '{', '[', ':':
			return false
		}
		v.i++
	}
	return v.i > start
}

// str consumes a string at v.i, checked as encoding/json checks one: no
// bytes below 0x20, and only the escapes JSON has (RFC 8259 §7).
func (v *valueScan) str() bool {
	v.i++ // '"'
	for v.i < len(v.b) {
		c := v.b[v.i]
		switch {
		case c == '"':
			v.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if v.i+1 >= len(v.b) {
				return false
			}
			switch v.b[v.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				v.i += 2
			case 'u':
				if v.i+6 > len(v.b) || !isHex4(v.b[v.i+2:v.i+6]) {
					return false
				}
				v.i += 6
			default:
				return false
			}
		default:
			v.i++
		}
	}
	return false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
