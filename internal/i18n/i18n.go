package i18n

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// The languages chatcli speaks.
var (
	English    = language.English
	Portuguese = language.BrazilianPortuguese
)

// Printer formats messages in one language. A nil Printer prints English.
//
// English is formatted by package fmt, so an English message is the key
// formatted as fmt.Sprintf would, digits ungrouped ("4004 tokens"),
// except that a count of one is said in the singular (plural.go).
// Portuguese numbers are grouped the Portuguese way ("4.004 tokens"),
// unless the Printer is Plain.
type Printer struct {
	tag   language.Tag
	plain bool // integers without digit grouping (see Plain)
}

// New returns the Printer of tag (English or Portuguese). A Printer
// costs nothing to make; the texts of a language are indexed once per
// process, at its first message.
func New(tag language.Tag) *Printer { return &Printer{tag: tag} }

// ptFormats maps each English key of the catalog (catalogue and
// textMessages) to its Portuguese format.
var ptFormats = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(messages)+len(errorMessages)+len(storageTexts)+len(storageMessages))
	for _, e := range append(catalogue(), textMessages()...) {
		m[e.en] = e.pt
	}
	return m
})

// FromEnv returns the Printer of the language getenv selects (see the
// package doc).
func FromEnv(getenv func(string) string) *Printer {
	for _, name := range []string{"CHATCLI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			return New(Match(v))
		}
	}
	return New(English)
}

// Match maps a language setting (pt-BR, pt_BR.UTF-8, en, C) to the
// language chatcli speaks for it: Portuguese for any Portuguese, English
// otherwise.
func Match(v string) language.Tag {
	v, _, _ = strings.Cut(v, ".") // pt_BR.UTF-8
	v, _, _ = strings.Cut(v, "@")
	t, err := language.Parse(strings.ReplaceAll(v, "_", "-"))
	if err != nil {
		return English
	}
	if base, _ := t.Base(); base.String() == "pt" {
		return Portuguese
	}
	return English
}

// Plain returns a Printer of p's language that writes integers without
// digit grouping ("4004 tokens" in Portuguese too), for text inside
// machine-readable output (-p --json, --stream-json), whose numbers must
// read the same in every language.
func (p *Printer) Plain() *Printer {
	if p == nil {
		return nil
	}
	q := *p
	q.plain = true
	return &q
}

// Tag is the Printer's language.
func (p *Printer) Tag() language.Tag {
	if p == nil {
		return English
	}
	return p.tag
}

// Sprintf formats the message whose English format is key.
// A message that counts something says each count's words in the form
// its language gives that count (plural.go).
func (p *Printer) Sprintf(key string, args ...any) string {
	if p == nil || p.tag != Portuguese {
		return english(key, args)
	}
	if p.plain {
		args = plainInts(args)
	}
	if c := portugueseCounted(); c.keys[key] {
		return c.printer.Sprintf(key, args...)
	}
	format, ok := ptFormats()[key]
	if !ok {
		format = key // a key without Portuguese (the catalog tests catch it)
	}
	return portuguese().Sprintf(format, args...)
}

// portuguese formats the Portuguese texts that count nothing.
var portuguese = sync.OnceValue(func() *message.Printer {
	return message.NewPrinter(Portuguese, message.Catalog(catalog.NewBuilder()))
})

// plainInts returns args with each integer in a plainInt.
func plainInts(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch n := a.(type) {
		case int:
			out[i] = plainInt(n)
		case int64:
			out[i] = plainInt(n)
		case int32:
			out[i] = plainInt(n)
		case uint:
			out[i] = plainInt(n)
		case uint32:
			out[i] = plainInt(n)
		case uint64:
			out[i] = plainInt(n)
		default:
			out[i] = a
		}
	}
	return out
}

// plainInt is an integer that formats itself as package fmt does, so
// message.Printer does not group its digits.
type plainInt int64

// Format implements fmt.Formatter.
func (n plainInt) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), int64(n))
}

// Decimal is s, a number as package fmt writes it ("11.7 KB"), with its
// decimal point a comma in Portuguese ("11,7 KB"), unless p is Plain.
func (p *Printer) Decimal(s string) string {
	if p.Tag() != Portuguese || p.plain {
		return s
	}
	return strings.Replace(s, ".", ",", 1)
}

// Fprintf writes the message whose English format is key to w.
func (p *Printer) Fprintf(w io.Writer, key string, args ...any) {
	io.WriteString(w, p.Sprintf(key, args...))
}
