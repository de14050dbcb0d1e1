package session

import (
	"unicode"
	"unicode/utf8"
)

// Look-alike marks: what LookAlike says of a name that may print like
// another session's.
const (
	// LookAlikeMixedScript marks a name whose letters come from more than
	// one script (a Cyrillic 'а' among Latin letters), apart from the sets
	// Unicode TR #39 ("Restriction-Level Detection", Highly Restrictive)
	// allows: Latin with Han, Hiragana and Katakana; Latin with Han and
	// Bopomofo; Latin with Han and Hangul.
	LookAlikeMixedScript = "mixed-script"
	// LookAlikeFullwidth marks a name holding fullwidth forms of ASCII
	// letters, digits or signs (U+FF01-U+FF5E), which print like ASCII.
	LookAlikeFullwidth = "fullwidth"
)

// allowedScripts are TR #39's Highly Restrictive script sets.
var allowedScripts = []map[string]bool{
	{"Latin": true, "Han": true, "Hiragana": true, "Katakana": true},
	{"Latin": true, "Han": true, "Bopomofo": true},
	{"Latin": true, "Han": true, "Hangul": true},
}

// LookAlike returns LookAlikeFullwidth or LookAlikeMixedScript when name
// may be mistaken for another name when printed, and "" otherwise (every
// ASCII name, every name in one script). session list marks such names.
func LookAlike(name string) string {
	scripts := map[string]bool{}
	for _, r := range name {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return LookAlikeFullwidth
		case !unicode.IsLetter(r):
		case r < utf8.RuneSelf:
			scripts["Latin"] = true
		default:
			scripts[scriptOf(r)] = true
		}
	}
	delete(scripts, "")
	if len(scripts) <= 1 {
		return ""
	}
	for _, allowed := range allowedScripts {
		if within(scripts, allowed) {
			return ""
		}
	}
	return LookAlikeMixedScript
}

// scriptOf is the Unicode script of letter r ("" for Common and
// Inherited).
func scriptOf(r rune) string {
	for s, table := range unicode.Scripts {
		if s != "Common" && s != "Inherited" && unicode.Is(table, r) {
			return s
		}
	}
	return ""
}

// within reports whether every key of set is in allowed.
func within(set, allowed map[string]bool) bool {
	for s := range set {
		if !allowed[s] {
			return false
		}
	}
	return true
}
