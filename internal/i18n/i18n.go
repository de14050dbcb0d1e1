package i18n

import (
	"fmt"
	"io"
	"strings"

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
type Printer struct {
	tag language.Tag
	p   *message.Printer
}

// New returns the Printer of tag (English or Portuguese).
func New(tag language.Tag) *Printer {
	b := catalog.NewBuilder(catalog.Fallback(English))
	for _, m := range catalogue() {
		b.SetString(English, m.en, m.en)
		b.SetString(Portuguese, m.en, m.pt)
	}
	return &Printer{tag: tag, p: message.NewPrinter(tag, message.Catalog(b))}
}

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

// Tag is the Printer's language.
func (p *Printer) Tag() language.Tag {
	if p == nil {
		return English
	}
	return p.tag
}

// Sprintf formats the message whose English format is key.
func (p *Printer) Sprintf(key string, args ...any) string {
	if p == nil {
		return fmt.Sprintf(key, args...)
	}
	return p.p.Sprintf(key, args...)
}

// Fprintf writes the message whose English format is key to w.
func (p *Printer) Fprintf(w io.Writer, key string, args ...any) {
	io.WriteString(w, p.Sprintf(key, args...))
}
