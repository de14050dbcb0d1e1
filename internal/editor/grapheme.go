package editor

import "github.com/rivo/uniseg"

// clusterBefore returns how many runes the grapheme cluster ending at rune
// position pos spans (0 at the start of the line), so that one Backspace or
// Left removes or skips a whole user-perceived character such as "é"
// written as e + U+0301, or an emoji with a skin-tone modifier.
func clusterBefore(r []rune, pos int) int {
	if pos <= 0 || pos > len(r) {
		return 0
	}
	g := uniseg.NewGraphemes(string(r[:pos]))
	n := 0
	for g.Next() {
		n = len(g.Runes())
	}
	return n
}

// clusterAfter returns how many runes the grapheme cluster starting at rune
// position pos spans (0 at the end of the line).
func clusterAfter(r []rune, pos int) int {
	if pos < 0 || pos >= len(r) {
		return 0
	}
	g := uniseg.NewGraphemes(string(r[pos:]))
	if g.Next() {
		return len(g.Runes())
	}
	return 0
}
