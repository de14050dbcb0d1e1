package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Character classes of the tokenizer.
const (
	classSep    = iota // ends a token
	classWord          // letter or decimal digit: extends a token
	classMark          // combining mark: extends any token, never ends one
	classSingle        // Han, Hiragana or Katakana: a token of its own
)

// asciiWord marks the ASCII bytes that belong to tokens: letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// class returns the tokenizer class of r.
func class(r rune) int {
	if r < utf8.RuneSelf {
		if asciiWord[r] {
			return classWord
		}
		return classSep
	}
	switch {
	case unicode.IsMark(r):
		return classMark
	case unicode.IsLetter(r):
		if r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)) {
			return classSingle
		}
		return classWord
	case unicode.IsDigit(r):
		return classWord
	}
	return classSep
}

// tokens calls fn with the byte range of every token of s, in order, until
// fn returns false. A
// token is a maximal run of letters, decimal digits and marks, except that
// every Han, Hiragana or Katakana character (with the marks that follow it)
// is a token of its own, since those scripts do not separate words.
func tokens(s string, fn func(start, end int) bool) {
	start, single := -1, false
	for i := 0; i < len(s); {
		var c, size int
		if b := s[i]; b < utf8.RuneSelf {
			c, size = classSep, 1
			if asciiWord[b] {
				c = classWord
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			c = class(r)
		}
		switch c {
		case classSep:
			if start >= 0 && !fn(start, i) {
				return
			}
			start = -1
		case classMark:
			if start < 0 {
				start, single = i, false
			}
		default:
			if start >= 0 && (single || c == classSingle) {
				if !fn(start, i) {
					return
				}
				start = -1
			}
			if start < 0 {
				start, single = i, c == classSingle
			}
		}
		i += size
	}
	if start >= 0 {
		fn(start, len(s))
	}
}

// isASCII reports whether s has only ASCII bytes, and whether any of them is
// an upper-case letter.
func isASCII(s string) (ascii, upper bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return false, false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	return true, upper
}

// appendLowerASCII appends s with ASCII upper-case letters lowered to dst.
func appendLowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

var folder = cases.Fold() // stateless, safe for concurrent use

// fold returns the search term of a token: canonical decomposition, full
// Unicode case folding, decomposition again, every nonspacing mark (Mn)
// dropped, then NFC. So "ÄRGER" and "ärger" give "arger", "ação" gives
// "acao", "straße" gives "strasse", and "ΣΟΦΌΣ" and "σοφός" give "σοφοσ".
// A token of marks only gives "".
func fold(tok string) string {
	if ascii, upper := isASCII(tok); ascii {
		if !upper {
			return tok
		}
		return string(appendLowerASCII(make([]byte, 0, len(tok)), tok))
	}
	s := norm.NFD.String(folder.String(norm.NFD.String(tok)))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// queryTerms returns the distinct folded terms of query, in order of first
// appearance.
func queryTerms(query string) []string {
	var out []string
	seen := map[string]bool{}
	tokens(query, func(s, e int) bool {
		t := fold(query[s:e])
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
		return true
	})
	return out
}
