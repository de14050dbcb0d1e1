package i18n

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JSONError returns err, an error of encoding/json's Unmarshal of data,
// with the byte a syntax error stopped at, so that Printer.Error can name
// that character in another language. Its Error is err's, and
// errors.As finds the *json.SyntaxError through it. Any other error is
// returned as it is: Printer.Error says a *json.UnmarshalTypeError by its
// type without it.
func JSONError(err error, data []byte) error {
	syn, ok := err.(*json.SyntaxError)
	if !ok || syn.Offset < 1 || syn.Offset > int64(len(data)) || syn.Error() == endOfInput {
		return err
	}
	return &jsonSyntax{syn, data[syn.Offset-1]}
}

// endOfInput is the text of encoding/json's SyntaxError for a document
// cut short; its Offset is then the document's length.
const endOfInput = "unexpected end of JSON input"

// jsonSyntax is a *json.SyntaxError and the byte it stopped at.
type jsonSyntax struct {
	*json.SyntaxError
	bad byte
}

func (e *jsonSyntax) Unwrap() error { return e.SyntaxError }

// jsonSaid is err, an error of encoding/json (or JSONError's,
// encoding/base64's CorruptInputError, io.ErrUnexpectedEOF), in p's language, said by its type and fields;
// false for any other error.
func (p *Printer) jsonSaid(err error) (string, bool) {
	if syn, ok := err.(*jsonSyntax); ok {
		return p.say(jsonWords, "invalid JSON at byte %d: unexpected character %s", syn.Offset, quoteChar(syn.bad)), true
	}
	switch e := err.(type) {
	case *json.SyntaxError:
		if e.Error() == endOfInput {
			return p.say(jsonWords, "the JSON ends early (byte %d)", e.Offset), true
		}
		return p.say(jsonWords, "invalid JSON at byte %d", e.Offset), true
	case *json.UnmarshalTypeError:
		value := p.from(jsonWords, e.Value)
		if n, ok := strings.CutPrefix(e.Value, "number "); ok {
			value = p.say(jsonWords, "number %s", n)
		}
		typ := "<nil>"
		if e.Type != nil {
			typ = e.Type.String()
		}
		if e.Struct != "" || e.Field != "" {
			return p.say(jsonWords, "json: cannot unmarshal %s into Go struct field %s of type %s", value, e.Struct+"."+e.Field, typ), true
		}
		return p.say(jsonWords, "json: cannot unmarshal %s into Go value of type %s", value, typ), true
	}
	if e, ok := err.(base64.CorruptInputError); ok {
		return p.say(jsonWords, "illegal base64 data at input byte %d", int64(e)), true
	}
	if err == io.ErrUnexpectedEOF {
		return p.say(jsonWords, "unexpected EOF"), true
	}
	return "", false
}

// say formats the message of list whose English format is en in p's
// language, as Sprintf formats a message of the catalog.
func (p *Printer) say(list []struct{ en, pt string }, en string, args ...any) string {
	if p.Tag() != Portuguese {
		return fmt.Sprintf(en, args...)
	}
	if p.plain {
		args = plainInts(args)
	}
	return portuguese().Sprintf(p.from(list, en), args...)
}

// quoteChar quotes c as encoding/json's syntax errors do: 'x', '\”,
// '"', '\x00'.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
