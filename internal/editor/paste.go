package editor

import (
	"fmt"
	"strings"
	"unicode"
)

// foldLines is the most lines a paste may have and still be shown as
// text; a longer one is shown as its label.
const foldLines = 10

// fold is a paste (or a recalled history entry) shown in the input as
// its label, "[pasted 42 lines]", and sent as its text.
type fold struct {
	label string
	text  string
}

// paste inserts a bracketed paste at the cursor. Line breaks are made line
// feeds (terminals send a carriage return for each line of a paste); the
// rest is kept byte for byte.
func (m *model) paste(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	m.insert(strings.ReplaceAll(s, "\r", "\n"))
}

// insert puts s at the cursor: as text when the textarea keeps it exactly
// and it has at most foldLines lines, otherwise as a fold.
func (m *model) insert(s string) {
	lines := strings.Count(s, "\n") + 1
	if len(s) > 1 && strings.HasSuffix(s, "\n") {
		lines-- // a line feed ends the last line, as wc -l counts them
	}
	if lines <= foldLines && keptAsTyped(s) {
		m.input.InsertString(s)
		return
	}
	label := m.lang.Sprintf("[pasted %d lines]", lines)
	if lines == 1 {
		label = m.lang.Sprintf("[pasted %d characters]", len([]rune(s)))
	}
	if n := len(m.folds); n > 0 {
		label = fmt.Sprintf("%s #%d]", strings.TrimSuffix(label, "]"), n+1)
	}
	m.folds = append(m.folds, fold{label: label, text: s})
	m.input.InsertString(label)
}

// keptAsTyped reports whether the textarea stores s unchanged: it turns
// tabs into spaces and drops carriage returns, other control characters
// and U+FFFD.
func keptAsTyped(s string) bool {
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if r == unicode.ReplacementChar || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// expand replaces each fold label still in s (the first occurrence of
// each) with its text.
func (m *model) expand(s string) string {
	for _, f := range m.folds {
		if i := strings.Index(s, f.label); i >= 0 {
			s = s[:i] + f.text + s[i+len(f.label):]
		}
	}
	return s
}

// foldBefore returns the length in runes of the fold label that before
// (the line up to the cursor) ends with, or 0, so that Backspace removes
// a label whole.
func (m *model) foldBefore(before string) int {
	for _, f := range m.folds {
		if strings.HasSuffix(before, f.label) {
			return len([]rune(f.label))
		}
	}
	return 0
}
