package main

import (
	"strings"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"
)

// errorIn is p.Error in lang: in English the JSON report's text itself;
// in another language p's error said there, led and ended as p.Error is.
func (p verifyProblem) errorIn(lang *i18n.Printer) string {
	if lang.Tag() == i18n.English || p.err == nil {
		return p.Error
	}
	s := command.ErrorLineIn(lang, p.err)
	switch {
	case p.notRepaired:
		s = lang.Sprintf("not repaired: %s", s)
	case !strings.Contains(s, p.Path):
		s = p.Path + ": " + s
	}
	if p.wrongKey {
		s += wrongKeyNote(lang, p.form)
	}
	return s
}

// reasonIn is why line l of a journal is damaged in lang: in English the
// JSON report's reason itself; in another language the journal reader's
// reason said there, with its numbers as they are written in the file
// ("4096 NUL bytes", "byte 1234").
func (l verifyLine) reasonIn(lang *i18n.Printer) string {
	if lang.Tag() == i18n.English {
		return l.Reason
	}
	return command.TextIn(lang.Plain(), l.said)
}
