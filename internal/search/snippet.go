package search

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/rivo/uniseg"
)

// Snippet returns a one-line excerpt of text around the first token that
// matches a term of query (after the same folding as Search), or from the
// start of text when none does. The excerpt has at most maxChars
// characters, counted as message.Clip counts them (extended grapheme
// clusters, UAX #29), the "…" marks included; it is cut only between
// characters and shows "…" on each side where text was cut. About a third
// of the room goes to the text before the match. Line breaks and tabs
// become spaces. The text shown is the original, not its folded form.
// maxChars < 1 gives ""; below 3 there is no room for the marks and the
// excerpt starts at the match without them.
func Snippet(text, query string, maxChars int) string {
	return snippet(message.ValidUTF8(text), queryTerms(query), maxChars)
}

// snippet is Snippet with the query already split into folded terms and
// text already valid UTF-8.
func snippet(text string, terms []string, maxChars int) string {
	at := 0
	tokens(text, func(s, e int) bool {
		if matches(text[s:e], terms) {
			at = s
			return false
		}
		return true
	})
	return excerpt(text, at, maxChars)
}

// matches reports whether tok folds to one of terms.
func matches(tok string, terms []string) bool {
	if ascii, _ := isASCII(tok); ascii { // fold lowers it, nothing more
		for _, t := range terms {
			if len(t) == len(tok) && strings.EqualFold(t, tok) {
				return true
			}
		}
		return false
	}
	return slices.Contains(terms, fold(tok))
}

// excerpt cuts a window of at most maxChars characters, marks included,
// out of text around the character holding byte offset at. It segments
// text into characters from a point shortly before at that is surely a
// character boundary, so its cost does not grow with at.
func excerpt(text string, at, maxChars int) string {
	if maxChars < 1 || text == "" {
		return ""
	}
	for back := 4 * maxChars; ; back *= 4 {
		from := boundaryBefore(text, at-back)
		if s, ok := excerptFrom(text, from, at, maxChars); ok {
			return s
		}
	}
}

// boundaryBefore returns the greatest offset i <= p of text that is surely
// a character boundary by the rules of UAX #29 alone, whatever surrounds
// it: between two ASCII bytes other than CR LF (GB3, GB999), after LF
// (GB4), before CR or LF not after CR (GB5); or 0.
func boundaryBefore(text string, p int) int {
	for i := p; i > 0; i-- {
		prev, cur := text[i-1], text[i]
		switch {
		case prev == '\r' && cur == '\n':
		case prev == '\n', cur == '\r' || cur == '\n',
			prev < utf8.RuneSelf && cur < utf8.RuneSelf:
			return i
		}
	}
	return 0
}

// excerptFrom is excerpt with segmentation starting at offset from, a
// character boundary at or before at. ok is false when from > 0 and fewer
// than maxChars characters lie between from and the match: the window might
// need characters before from.
func excerptFrom(text string, from, at, maxChars int) (_ string, ok bool) {
	// starts holds the start offsets of the last maxChars characters up to
	// and including the one holding at (character m, counted from from),
	// indexed modulo maxChars; ends the end offsets of up to maxChars
	// characters from m on.
	starts := make([]int, maxChars)
	var ends []int
	rest, off, state, m := text[from:], from, -1, 0
	for i := 0; len(rest) > 0; i++ {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		starts[i%maxChars] = off
		off += len(c)
		if off > at {
			m, ends = i, append(ends, off)
			break
		}
	}
	if from > 0 && m < maxChars {
		return "", false
	}
	for len(ends) < maxChars && len(rest) > 0 {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		off += len(c)
		ends = append(ends, off)
	}
	more := len(rest) > 0                        // characters after the last of ends
	known := m + len(ends)                       // characters from from up to the last of ends
	if from == 0 && !more && known <= maxChars { // the whole text fits
		return oneLine(text), true
	}
	if maxChars < 3 {
		return oneLine(text[starts[m%maxChars]:ends[min(maxChars, len(ends))-1]]), true
	}
	a := max(0, m-(maxChars-2)/3) // first character shown
	left, right := 0, 0
	if a > 0 || from > 0 {
		left = 1
	}
	var z int // one past the last character shown
	if !more && known-a <= maxChars-left {
		// The end of the text is in reach: show it, and spend the room
		// left over on text before the match.
		left, z = 1, known
		a = known - (maxChars - 1)
	} else {
		right = 1
		z = a + maxChars - left - right
	}
	var b strings.Builder
	if left == 1 {
		b.WriteString("…")
	}
	b.WriteString(oneLine(text[starts[a%maxChars]:ends[z-1-m]]))
	if right == 1 {
		b.WriteString("…")
	}
	return b.String(), true
}

// lineBreaks turns every line or paragraph separator and tab into a space.
// Each of them is a character of its own, except "\r\n", which is one
// character and becomes one space.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ",
	"\v", " ", "\f", " ", "\u0085", " ", "\u2028", " ", "\u2029", " ")

// oneLine returns s on one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t\v\f\u0085\u2028\u2029") {
		return s
	}
	return lineBreaks.Replace(s)
}
