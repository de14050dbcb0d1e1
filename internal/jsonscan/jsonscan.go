// Package jsonscan finds the members of a JSON object and the elements of a
// JSON array without decoding them: a byte scan that skips strings with
// bytes.IndexAny, many times faster than encoding/json's state machine. The
// stores use it to split large documents so that encoding/json decodes each
// byte once.
//
// The scan checks structure (quotes, colons, commas, brackets) but not the
// contents of values: callers validate every value they keep, by decoding
// it or with json.Valid.
//
// Stream does the same for a document read from an io.Reader through a
// buffer of fixed size, for documents too large to hold in memory: it
// walks them value by value (Count counts the elements of an array) and
// also checks literals and numbers.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ErrSyntax is wrapped by every structural error, with the byte offset.
// The errors are catalog errors (i18n.Errorf): their Error is English,
// and an i18n.Printer says them in the user's language.
var ErrSyntax = i18n.Errorf("jsonscan: invalid JSON")

// Member is one member of an object: its decoded key and the raw bytes of
// its value (a sub-slice of the input, not a copy).
type Member struct {
	Key   string
	Value []byte
}

// Members returns the members of the JSON object data, in order. Errors wrap
// ErrSyntax and give the byte offset; a document cut short says so.
func Members(data []byte) ([]Member, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, i18n.Errorf("%w: want an object at byte %d", ErrSyntax, i)
	}
	var out []Member
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return out, trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, i18n.Errorf("%w: want a member name at byte %d", ErrSyntax, i)
		}
		end, err := skipString(data, i)
		if err != nil {
			return nil, err
		}
		key := string(data[i+1 : end-1])
		if bytes.IndexByte(data[i:end], '\\') >= 0 || !utf8.Valid(data[i:end]) {
			if err := json.Unmarshal(data[i:end], &key); err != nil {
				return nil, i18n.Errorf("%w: bad member name at byte %d", ErrSyntax, i)
			}
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, i18n.Errorf("%w: want ':' at byte %d", ErrSyntax, i)
		}
		i = skipSpace(data, i+1)
		vend, err := SkipValue(data, i)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{Key: key, Value: data[i:vend]})
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, i18n.Errorf("%w: the document ends early (byte %d)", ErrSyntax, i)
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return out, trailing(data, i+1)
		default:
			return nil, i18n.Errorf("%w: want ',' or '}' at byte %d", ErrSyntax, i)
		}
	}
}

func trailing(data []byte, i int) error {
	if i = skipSpace(data, i); i != len(data) {
		return i18n.Errorf("%w: unexpected data after the document at byte %d", ErrSyntax, i)
	}
	return nil
}

// SkipValue returns the offset just past the JSON value starting at
// data[i]. It checks bracket nesting and string termination only.
func SkipValue(data []byte, i int) (int, error) {
	depth := 0
	start := i
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			end, err := skipString(data, i)
			if err != nil {
				return 0, err
			}
			i = end
			if depth == 0 {
				return i, nil
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, nil // an empty value: the caller reports it
			}
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		case ',':
			if depth == 0 {
				if i == start {
					return 0, i18n.Errorf("%w: missing value at byte %d", ErrSyntax, i)
				}
				return i, nil
			}
		case ' ', '\t', '\n', '\r':
			if depth == 0 && i > start {
				return i, nil
			}
		}
		i++
	}
	if depth > 0 || i == start {
		return 0, i18n.Errorf("%w: the document ends early (byte %d)", ErrSyntax, len(data))
	}
	return i, nil
}

// Elements returns the raw elements of the JSON array data, in order.
func Elements(data []byte) ([][]byte, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, i18n.Errorf("%w: want an array at byte %d", ErrSyntax, i)
	}
	var out [][]byte
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return out, trailing(data, i+1)
	}
	for {
		end, err := SkipValue(data, i)
		if err != nil {
			return nil, err
		}
		out = append(out, data[i:end])
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, i18n.Errorf("%w: the document ends early (byte %d)", ErrSyntax, i)
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case ']':
			return out, trailing(data, i+1)
		default:
			return nil, i18n.Errorf("%w: want ',' or ']' at byte %d", ErrSyntax, i)
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset just past the string starting at b[i]. It
// jumps from quote to quote with bytes.IndexByte (vectorised) and treats a
// quote preceded by an odd run of backslashes as escaped.
func skipString(b []byte, i int) (int, error) {
	start := i
	i++
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			break
		}
		i += j
		k := i - 1
		for k > start && b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1, nil
		}
		i++
	}
	return 0, i18n.Errorf("%w: unterminated string starting at byte %d", ErrSyntax, start)
}
