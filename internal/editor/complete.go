package editor

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// maxCandidateLines is how many completion candidates are listed under the
// input at once.
const maxCandidateLines = 8

// tab completes the line. One candidate replaces the line. Several are
// listed under the input: the first Tab extends the line to their longest
// common prefix when that adds something, otherwise selects the first
// candidate; each further Tab (Shift+Tab: backwards) selects the next one.
func (m *model) tab(backward bool) {
	if m.cands == nil {
		if m.complete == nil {
			return
		}
		line := m.input.Value()
		cands := m.complete(line)
		switch len(cands) {
		case 0:
			return
		case 1:
			m.setLine(cands[0])
			return
		}
		m.cands, m.candPos = cands, -1
		if p := commonPrefix(cands); len(p) > len(line) && strings.HasPrefix(p, line) {
			m.setLine(p)
			return
		}
	}
	n := len(m.cands)
	switch {
	case backward && m.candPos <= 0:
		m.candPos = n - 1
	case backward:
		m.candPos--
	default:
		m.candPos = (m.candPos + 1) % n
	}
	m.setLine(m.cands[m.candPos])
}

// candidatesView lists the candidates, marking the selected one and keeping
// it in view.
func (m model) candidatesView() string {
	first := 0
	if m.candPos >= maxCandidateLines {
		first = m.candPos - maxCandidateLines + 1
	}
	last := min(len(m.cands), first+maxCandidateLines)
	widest := 0 // the notes start in one column, after the widest candidate shown
	for i := first; i < last; i++ {
		widest = max(widest, ansi.StringWidth(strings.ReplaceAll(m.cands[i], "\n", " ")))
	}
	lines := make([]string, 0, last-first+1)
	for i := first; i < last; i++ {
		mark := "  "
		if i == m.candPos {
			mark = "> "
		}
		c := strings.ReplaceAll(m.cands[i], "\n", " ")
		if m.note != nil {
			if note := m.note(m.cands[i]); note != "" {
				c += strings.Repeat(" ", widest-ansi.StringWidth(c)) + "  — " + note
			}
		}
		if m.width > 2 {
			c = ansi.Truncate(c, m.width-2, "…")
		}
		lines = append(lines, mark+c)
	}
	if hidden := len(m.cands) - (last - first); hidden > 0 {
		lines = append(lines, m.lang.Sprintf("  (%d of %d shown)", last-first, len(m.cands)))
	}
	return strings.Join(lines, "\n")
}

// commonPrefix returns the longest prefix, on rune boundaries, that all of
// ss share.
func commonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := []rune(ss[0])
	for _, s := range ss[1:] {
		r := []rune(s)
		n := 0
		for n < len(p) && n < len(r) && p[n] == r[n] {
			n++
		}
		p = p[:n]
	}
	return string(p)
}
