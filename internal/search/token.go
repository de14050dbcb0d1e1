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
	classPair          // Thai, Lao, Khmer or Myanmar: tokens are overlapping pairs
)

// unspaced holds the scripts written without spaces between words whose
// runs are cut into overlapping pairs of characters (bigrams, as CJK
// search engines index text they cannot segment).
var unspaced = []*unicode.RangeTable{unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

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
		if r >= 0x0E00 && r < 0xAA80 && unicode.IsOneOf(unspaced, r) {
			return classPair
		}
		return classWord
	case unicode.IsDigit(r):
		return classWord
	}
	return classSep
}

// tokens calls fn with the byte range of every token of s, in order, until
// fn returns false. A token is a maximal run of letters, decimal digits and
// marks, except that every Han, Hiragana or Katakana character (with the
// marks that follow it) is a token of its own, and that a run of Thai, Lao,
// Khmer or Myanmar characters gives one token per pair of neighbouring
// characters (each with its marks; a run of one character is one token),
// since those scripts do not separate words: "กขค" gives "กข" and "ขค".
func tokens(s string, fn func(start, end int) bool) {
	// start is where the current token's last character starts (-1: no
	// token); prev, in a pair run, where the character before it starts.
	start, prev, kind := -1, -1, classWord
	end := func(i int) bool {
		from := start
		if prev >= 0 {
			from = prev
		}
		start, prev = -1, -1
		return from < 0 || fn(from, i)
	}
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
		switch {
		case c == classSep:
			if !end(i) {
				return
			}
		case c == classMark:
			if start < 0 {
				start, kind = i, classWord
			}
		case c == classPair && start >= 0 && kind == classPair:
			if prev >= 0 && !fn(prev, i) {
				return
			}
			prev, start = start, i
		default:
			if start >= 0 && (kind != classWord || c != classWord) && !end(i) {
				return
			}
			if start < 0 {
				start, kind = i, c
			}
		}
		i += size
	}
	end(len(s))
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
