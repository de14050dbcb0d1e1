package editor

import (
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// TypeAhead keeps b, the bytes of keys typed while no line was being read
// (read by someone else meanwhile: the REPL's Esc watch during a turn),
// for the next ReadLine, which starts as if they had been typed there:
// text, Enter (CR or LF), Alt+Enter (ESC CR, or ESC LF as a terminal in
// canonical mode passes it: a line break) and Backspace. Escape sequences
// (arrow and function keys), Esc and the other control keys are dropped,
// so a key typed ahead never leaves the REPL (Ctrl+D) or cancels a line.
// It must not be called while ReadLine runs.
func (e *Editor) TypeAhead(b []byte) {
	e.pending = append(e.pending, typedKeys(b)...)
}

// typedKeys decodes the keys of b that TypeAhead keeps.
func typedKeys(b []byte) []tea.Msg {
	var keys []tea.Msg
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == 0x1b && len(b) > 1 && (b[1] == '\r' || b[1] == '\n'): // Alt+Enter: a line break
			keys = append(keys, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
			b = b[2:]
			continue
		case c == 0x1b:
			b = b[escapeLen(b):]
			continue
		case c == '\r' || c == '\n':
			keys = append(keys, tea.KeyPressMsg{Code: tea.KeyEnter})
		case c == 0x7f || c == 0x08:
			keys = append(keys, tea.KeyPressMsg{Code: tea.KeyBackspace})
		case c < 0x20:
		default:
			r, n := utf8.DecodeRune(b)
			if r != utf8.RuneError {
				k := tea.KeyPressMsg{Code: r, Text: string(r)}
				if unicode.IsUpper(r) { // as the terminal reader reports it
					k.Code, k.ShiftedCode, k.Mod = unicode.ToLower(r), r, tea.ModShift
				}
				keys = append(keys, k)
			}
			b = b[n:]
			continue
		}
		b = b[1:]
	}
	return keys
}

// escapeLen is the length of the escape sequence b starts with: a CSI
// sequence (ESC '[' parameters, intermediates, final byte), an SS3 key
// (ESC 'O' and one byte), a string a terminal sends in reply to a query
// (OSC, DCS, APC, PM or SOS, up to BEL or ESC '\'), or a lone ESC.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return len(b)
	}
	switch b[1] {
	case 'O':
		return min(3, len(b))
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1
			}
		}
		return len(b)
	case ']', 'P', '_', '^', 'X':
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return len(b)
	}
	return 1
}

// typedOnly are the keys of msgs TypeAhead would keep: text, Enter,
// Alt+Enter, Backspace, and pastes.
func typedOnly(msgs []tea.Msg) []tea.Msg {
	var keep []tea.Msg
	for _, msg := range msgs {
		switch k := msg.(type) {
		case tea.PasteMsg:
			keep = append(keep, k)
		case tea.KeyPressMsg:
			text := k.Text != "" && k.Mod&^tea.ModShift == 0
			enter := k.Code == tea.KeyEnter && k.Mod&^tea.ModAlt == 0
			if text || enter || (k.Code == tea.KeyBackspace && k.Mod == 0) {
				keep = append(keep, k)
			}
		}
	}
	return keep
}
