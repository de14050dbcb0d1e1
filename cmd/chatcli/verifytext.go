package main

import (
	"regexp"
	"strconv"
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

// The forms of the reasons the journal reader gives for a damaged line
// (journal.Warning.Reason) that take a number or another reason.
var (
	reasonNULs       = regexp.MustCompile(`^(\d+) NUL bytes$`)
	reasonNULsRecord = regexp.MustCompile(`^(\d+) NUL bytes before a record$`)
	reasonNULsThen   = regexp.MustCompile(`^(\d+) NUL bytes before a record, then (.+)$`)
	reasonTorn       = regexp.MustCompile(`^torn last line, (\d+) bytes without a newline$`)
	reasonChecksum   = regexp.MustCompile(`^checksum mismatch \(stored (.+), computed (.+)\)$`)
)

// reasonIn is the reason of a damaged journal line (English, as the
// journal reader and the JSON report give it) in lang. A reason of a form
// it does not know keeps its words, with the kinds of error it names
// (journal: corrupt record, seal: …) said in lang.
func reasonIn(lang *i18n.Printer, reason string) string {
	if lang.Tag() == i18n.English {
		return reason
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch reason {
	case "empty line":
		return lang.Sprintf("empty line")
	case "NUL bytes inside the line":
		return lang.Sprintf("NUL bytes inside the line")
	case "sealed line, and no key to open it":
		return lang.Sprintf("sealed line, and no key to open it")
	}
	if m := reasonNULs.FindStringSubmatch(reason); m != nil {
		return lang.Plain().Sprintf("%d NUL bytes", num(m[1]))
	}
	if m := reasonNULsRecord.FindStringSubmatch(reason); m != nil {
		return lang.Plain().Sprintf("%d NUL bytes before a record", num(m[1]))
	}
	if m := reasonNULsThen.FindStringSubmatch(reason); m != nil {
		return lang.Plain().Sprintf("%d NUL bytes before a record, then %s", num(m[1]), reasonIn(lang, m[2]))
	}
	if m := reasonTorn.FindStringSubmatch(reason); m != nil {
		return lang.Plain().Sprintf("torn last line, %d bytes without a newline", num(m[1]))
	}
	if m := reasonChecksum.FindStringSubmatch(reason); m != nil {
		return lang.Sprintf("checksum mismatch (stored %s, computed %s)", m[1], m[2])
	}
	if rest, ok := strings.CutPrefix(reason, "sealed line does not open: "); ok {
		return lang.Sprintf("sealed line does not open: %s", kindsSaid(lang, rest))
	}
	return kindsSaid(lang, reason)
}

// kindsSaid is s with the text of each kind of error the catalog names
// replaced by its line in lang.
func kindsSaid(lang *i18n.Printer, s string) string {
	for _, k := range []string{"journal: corrupt record", "seal: wrong key or tampered data", "seal: corrupt envelope",
		"seal: envelope version too new", "seal: bad key"} {
		s = strings.ReplaceAll(s, k, lang.Kind(k))
	}
	return s
}
