package compact

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// reasoningTags are the blocks stripped from assistant text at level 1.
var reasoningTags = []string{"reasoning", "thinking", "think"}

// stripReasoning removes every complete <tag>…</tag> block of reasoningTags
// from s, with the blanks that follow it, and returns how many it removed.
// An opening tag without its closing tag is left alone.
func stripReasoning(s string) (string, int) {
	n := 0
	for _, tag := range reasoningTags {
		open, end := "<"+tag+">", "</"+tag+">"
		from := 0
		for {
			i := strings.Index(s[from:], open)
			if i < 0 {
				break
			}
			i += from
			j := strings.Index(s[i+len(open):], end)
			if j < 0 {
				break
			}
			j += i + len(open) + len(end)
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n') {
				j++
			}
			s, from = s[:i]+s[j:], i
			n++
		}
	}
	return s, n
}

// cleanTerminal drops what only a terminal needs from tool output: escape
// sequences (colours, cursor moves) and text overwritten by a carriage
// return (progress bars keep their last state).
func cleanTerminal(s string) string {
	if strings.IndexByte(s, '\x1b') >= 0 {
		s = stripEscapes(s)
	}
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		if k := strings.LastIndexByte(l, '\r'); k >= 0 {
			l = l[k+1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// stripEscapes removes terminal escape sequences from s: CSI (ESC [ …
// final byte), OSC (ESC ] … BEL or ESC \), character-set selections
// (ESC ( X) and other two-byte escapes.
func stripEscapes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '\x1b')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		switch {
		case s == "":
		case s[0] == '[':
			j := 1
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f { // parameters, intermediates
				j++
			}
			if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e { // final byte
				j++
			}
			s = s[j:]
		case s[0] == ']':
			j := strings.IndexAny(s, "\a\x1b")
			switch {
			case j < 0:
				s = ""
			case s[j] == '\a':
				s = s[j+1:]
			default:
				s = s[min(j+2, len(s)):] // ESC \\
			}
		case s[0] == '(' || s[0] == ')':
			s = s[min(2, len(s)):]
		default:
			s = s[1:]
		}
	}
}

// needsSqueeze reports whether squeeze would change s.
func needsSqueeze(s string) bool {
	return strings.Contains(s, "\n\n\n") || strings.Contains(s, " \n") || strings.Contains(s, "\t\n") ||
		strings.Contains(s, "\r\n") || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") || strings.HasSuffix(s, "\r")
}

// squeeze removes blanks at line ends (a CR before LF included) and
// shortens every run of three or more line breaks, blank lines with only
// spaces counting as empty, to two. Indentation is kept.
func squeeze(s string) string {
	if !needsSqueeze(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			b.WriteString(strings.TrimRight(s[i:], " \t\r"))
			break
		}
		b.WriteString(strings.TrimRight(s[i:i+j], " \t\r"))
		k, breaks := i+j, 0
		for {
			breaks, k = breaks+1, k+1
			e := k
			for e < len(s) && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r') {
				e++
			}
			if e < len(s) && s[e] == '\n' {
				k = e
				continue
			}
			if e == len(s) {
				k = e
			}
			break
		}
		b.WriteString("\n\n"[:min(breaks, 2)])
		i = k
	}
	return b.String()
}

// headTail shortens s to about head bytes from its start and tail bytes
// from its end around a marker saying what was cut. Cuts fall at a line end
// when one is in the last half of the head (first half of the tail), and
// otherwise between characters. ok is false when s is short enough.
func headTail(s string, head, tail int) (out string, ok bool) {
	if len(s) <= head+tail+128 {
		return s, false
	}
	h := strings.LastIndexByte(s[:head], '\n') + 1
	if h < head/2 {
		h = graphemeFloor(s, head)
	}
	start := len(s) - tail
	t := graphemeCeil(s, start)
	if nl := strings.IndexByte(s[start:], '\n'); nl >= 0 && nl < tail/2 {
		t = start + nl + 1
	}
	cut := s[h:t]
	marker := fmt.Sprintf("[… %d bytes (%d lines) cut …]\n", len(cut), strings.Count(cut, "\n"))
	sep := ""
	if h > 0 && s[h-1] != '\n' {
		sep = "\n"
	}
	return s[:h] + sep + marker + s[t:], true
}

// graphemeFloor returns the last boundary between user-perceived
// characters at or before byte n of s.
func graphemeFloor(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	pos := scanStart(s, n)
	rest, state := s[pos:], -1
	for len(rest) > 0 {
		c, r, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		if pos+len(c) > n {
			break
		}
		pos, rest, state = pos+len(c), r, st
	}
	return pos
}

// graphemeCeil returns the first boundary between user-perceived
// characters at or after byte n of s.
func graphemeCeil(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	pos := scanStart(s, n)
	rest, state := s[pos:], -1
	for pos < n && len(rest) > 0 {
		c, r, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		pos, rest, state = pos+len(c), r, st
	}
	return pos
}

// scanStart is where a grapheme scan towards byte n begins: at the last
// ASCII byte in the KB before n (a character boundary: ASCII is never a
// combining mark or joiner; after a line break, past it), else at the rune
// start 1 KB before n.
func scanStart(s string, n int) int {
	lo := max(n-1024, 0)
	for i := n - 1; i >= lo; i-- {
		if c := s[i]; c < utf8.RuneSelf {
			if c == '\n' {
				return i + 1
			}
			return i
		}
	}
	for lo > 0 && !utf8.RuneStart(s[lo]) {
		lo--
	}
	return lo
}
