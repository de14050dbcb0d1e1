package i18n

import (
	"fmt"
	"strings"
)

// Error is an error whose text is a catalog message (errorMessages). Its
// Error is the English text, fmt.Errorf's of the same format and
// arguments but for a count of one said in the singular, and it wraps what fmt.Errorf's %w verbs wrap, so errors.Is
// and errors.As see through it; Printer.Error says it in another language.
type Error struct {
	format string
	args   []any
	err    error // fmt.Errorf(format, args...), or the error Reword rewords
	reword bool  // err is Reword's: the English text and what is wrapped
}

// Errorf is fmt.Errorf for a message of the catalog: format is its key.
// It builds no catalog: package variables are Errors (ErrChecksum), and
// a process that prints no counted message never pays for one.
func Errorf(format string, args ...any) error {
	return &Error{format: format, args: args, err: fmt.Errorf(format, args...)}
}

// Sayer is an error of its own type whose text is an Error's: Said
// returns that Error (its Error() is the same text), which Printer.Error
// says in place of the Sayer.
type Sayer interface {
	error
	Said() error
}

// Reword returns an Error whose English text is err's own and which wraps
// err, said in another language by the catalog message format with args:
// for an error of another package (strconv's) worded the way chatcli
// words it.
func Reword(err error, format string, args ...any) error {
	return &Error{format: format, args: args, err: err, reword: true}
}

// Error is the English text.
func (e *Error) Error() string {
	if !e.reword && englishCounted().keys[e.format] {
		return english(e.format, e.args)
	}
	return e.err.Error()
}

// Unwrap returns the errors format's %w verbs wrap, or Reword's error.
func (e *Error) Unwrap() []error {
	if e.reword {
		return []error{e.err}
	}
	switch u := e.err.(type) {
	case interface{ Unwrap() error }:
		return []error{u.Unwrap()}
	case interface{ Unwrap() []error }:
		return u.Unwrap()
	}
	return nil
}

// Error is the text of err in p's language. An Error (or a Sayer's) is
// said by its
// catalog message, with each error and Text among its arguments said the
// same way;
// an error of encoding/json (a *json.SyntaxError, one of JSONError, a
// *json.UnmarshalTypeError), a base64.CorruptInputError,
// io.ErrUnexpectedEOF and an error of the operating system (oserr.go) by
// its type and fields; any other error by other (err.Error() when other is nil), which
// is where a caller names the kinds of error it knows
// (command.ErrorLineIn). In English it is err.Error().
func (p *Printer) Error(err error, other func(error) string) string {
	if p.Tag() != Portuguese {
		return err.Error()
	}
	if s, ok := err.(Sayer); ok {
		err = s.Said()
	}
	if j, ok := err.(*joined); ok {
		lines := make([]string, len(j.errs))
		for i, e := range j.errs {
			lines[i] = p.Error(e, other)
		}
		return strings.Join(lines, "\n")
	}
	e, ok := err.(*Error)
	if !ok || !isErrorKey[e.format] {
		if s, ok := p.jsonSaid(err); ok {
			return s
		}
		if s, ok := p.osSaid(err); ok {
			return s
		}
		if other == nil {
			return err.Error()
		}
		return other(err)
	}
	return p.Sprintf(e.format, p.said(e.args, other)...)
}

// Join is errors.Join (the same text, one error a line, and the same
// errors wrapped) for errors Printer.Error says one by one.
func Join(errs ...error) error {
	var j joined
	for _, e := range errs {
		if e != nil {
			j.errs = append(j.errs, e)
		}
	}
	if len(j.errs) == 0 {
		return nil
	}
	return &j
}

type joined struct{ errs []error }

func (j *joined) Error() string {
	lines := make([]string, len(j.errs))
	for i, e := range j.errs {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (j *joined) Unwrap() []error { return j.errs }

// Text is t in p's language, with each Text and error among its
// arguments said the same way; t's English text when the catalog does not
// hold it.
func (p *Printer) Text(t Text) string { return p.TextWith(t, nil) }

// TextWith is Text with each error among t's arguments said as Error
// says it with other.
func (p *Printer) TextWith(t Text, other func(error) string) string {
	if p.Tag() != Portuguese || !isErrorKey[t.format] {
		return t.String()
	}
	return p.Sprintf(t.format, p.said(t.args, other)...)
}

// said is args with each error and Text among them said in p's language
// (an error through other, as Error does, in a Text too).
func (p *Printer) said(args []any, other func(error) string) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case error:
			out[i] = p.Error(a, other)
		case Text:
			out[i] = p.TextWith(a, other)
		default:
			out[i] = a
		}
	}
	return out
}

// isErrorKey tells the formats of errorMessages.
var isErrorKey = func() map[string]bool {
	m := make(map[string]bool, len(errorMessages)+len(storageTexts))
	for _, e := range textMessages() {
		m[e.en] = true
	}
	return m
}()

// Text is a phrase of the catalog (errorMessages) given as an argument of
// an Error, such as what a command's arguments should be ("SRC and DST"):
// fmt prints its English text, and Printer.Error says it in its language.
type Text struct {
	format string
	args   []any
}

// Textf is the Text of the catalog message format with args; the Text of
// "" prints nothing.
func Textf(format string, args ...any) Text { return Text{format: format, args: args} }

// IsZero reports whether t is the zero Text or Textf(""), which print
// nothing.
func (t Text) IsZero() bool { return t.format == "" }

// String is the English text.
func (t Text) String() string { return english(t.format, t.args) }
