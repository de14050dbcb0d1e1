package message

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// ValidUTF8 returns s with every byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD, one replacement per byte: the same result
// encoding/json gives when it encodes or decodes such a string, so text
// looks the same whether it came from a file, a provider or the keyboard.
// NUL bytes are valid UTF-8 and survive.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Clip shortens s to at most maxChars user-perceived characters (Unicode
// extended grapheme clusters, UAX #29) and appends "…" when it cut anything.
// It never splits a character: an emoji with modifiers, a flag or a letter
// with combining marks stays whole. Newlines and tabs become spaces, so the
// result fits on one line. maxChars < 1 yields "".
func Clip(s string, maxChars int) string {
	if maxChars < 1 {
		return ""
	}
	s = oneLine(ValidUTF8(s))
	if utf8.RuneCountInString(s) <= maxChars {
		return s
	}
	if asciiPrefix(s, maxChars+1) {
		// Between two ASCII bytes there is always a cluster boundary but
		// inside CR LF (UAX #29 GB3-GB5, GB9-GB999), and oneLine left no CR.
		return s[:maxChars] + "…"
	}
	// The ASCII bytes before the last one of the leading ASCII run are one
	// character each (the rule above); clusters are counted from there.
	n := max(asciiRun(s)-1, 0)
	rest, state := s[n:], -1
	for rest != "" {
		if n == maxChars {
			return s[:len(s)-len(rest)] + "…"
		}
		_, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		n++
	}
	return s
}

// asciiRun is the length in bytes of the run of ASCII bytes s starts
// with.
func asciiRun(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return len(s)
}

// asciiPrefix reports whether s has at least n bytes and its first n are
// ASCII.
func asciiPrefix(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return lineBreaks.Replace(s)
}
