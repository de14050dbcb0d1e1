package i18n

import "strings"

// Agrees reports whether answer, a reply typed to a yes/no question
// (surrounding spaces and case ignored), says yes in p's language: "y" or
// "yes" in both languages, and "s" or "sim" in Portuguese too, so a
// Portuguese speaker's natural answer to "[s/N]" is not taken for no.
// Anything else, the empty answer included, is no.
func (p *Printer) Agrees(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true
	case "s", "sim":
		return p.Tag() == Portuguese
	}
	return false
}
