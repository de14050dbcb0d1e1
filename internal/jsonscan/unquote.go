package jsonscan

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Unquote returns the string the JSON string literal lit (its quotes
// included) stands for, as encoding/json decodes it into a string: its
// escapes replaced, and invalid UTF-8 and lone surrogates each replaced by
// U+FFFD. It makes one pass over lit. Errors wrap ErrSyntax: lit is not a
// whole string literal (a bad escape, a control byte, no closing quote).
func Unquote(lit []byte) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", i18n.Errorf("%w: not a string literal", ErrSyntax)
	}
	s := lit[1 : len(lit)-1]
	plain := true
	for _, c := range s {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(s), nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\':
			r, n, ok := unescape(s[i:])
			if !ok {
				return "", i18n.Errorf("%w: bad escape at byte %d of a string", ErrSyntax, i+1)
			}
			out = utf8.AppendRune(out, r)
			i += n
		case c == '"' || c < 0x20:
			return "", i18n.Errorf("%w: byte %s inside a string at byte %d", ErrSyntax, fmt.Sprintf("%#x", c), i+1)
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			out = utf8.AppendRune(out, r) // utf8.RuneError for invalid UTF-8, as encoding/json
			i += n
		}
	}
	return string(out), nil
}

// unescape decodes the escape sequence at the start of s (a backslash
// first), and returns the rune, the bytes it took and whether it is one.
func unescape(s []byte) (rune, int, bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, 0, false
		}
		if !utf16.IsSurrogate(r) {
			return r, 6, true
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if r2, ok := hex4(s[8:]); ok {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, 12, true
				}
			}
		}
		return utf8.RuneError, 6, true // a lone surrogate, as encoding/json
	}
	return 0, 0, false
}

// hex4 decodes the four hex digits at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s[:4]), 16, 32)
	return rune(v), err == nil
}
