package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Visible returns s with every control character made visible, so that
// text from models, files and other programs (titles, messages, names,
// tool output, search snippets) cannot drive the terminal it is printed
// on: no OSC (window titles, OSC 8 hyperlinks), no CSI (clearing the
// screen, moving the cursor), no C1 control. This is the one function
// every plain-text printer passes untrusted text through.
//
// ESC is shown as "^[", the other C0 controls (U+0000–U+001F) in caret
// notation ("^@" … "^_"), DEL as "^?", and the C1 controls
// (U+0080–U+009F, which terminals take for ESC sequences: U+009B is CSI)
// as "<U+009B>"; a byte that is not UTF-8 becomes U+FFFD. The explicit
// bidirectional formatting characters of Unicode TR #9 (§2.1–2.2: the
// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069),
// which reorder the text around them without being seen (the "Trojan
// Source" attack, CVE-2021-42574), are shown the same way ("<U+202E>");
// the implicit marks LRM, RLM and ALM, which right-to-left text needs and
// which reorder nothing past a neighbouring character, are kept. Line feed and
// tab are kept (the layout keeps them); CR LF becomes a line feed and a
// lone CR is shown as "^M". Text with nothing to change is returned as it
// is, without a copy.
func Visible(s string) string { return visible(s, false) }

// VisibleLine is Visible for text printed within one line (a table cell,
// a search snippet, a title): line feeds and tabs become spaces too.
func VisibleLine(s string) string { return visible(s, true) }

func visible(s string, line bool) string {
	if clean(s, line) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
			j++ // printable ASCII: copied as a run
		}
		b.WriteString(s[i:j])
		if i = j; i == len(s) {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CR LF: the line feed that follows is the line's end.
		case r == '\n' || r == '\t':
			if line {
				b.WriteByte(' ')
			} else {
				b.WriteRune(r)
			}
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r < 0xa0, isBidiControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isBidiControl reports whether r is an explicit bidirectional embedding,
// override or isolate (Unicode TR #9, §2.1–2.2): U+202A–U+202E or
// U+2066–U+2069.
func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// clean reports whether s holds nothing visible would change: no control
// byte (but line feed and tab outside a line), no C1 control (UTF-8
// C2 80 to C2 9F), no bidirectional control (E2 80 AA–AE, E2 81 A6–A9)
// and no byte that is not UTF-8.
func clean(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\t':
			if line {
				return false
			}
		case c < 0x20 || c == 0x7f:
			return false
		case c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0:
			return false
		case c == 0xe2 && i+2 < len(s) && (s[i+1] == 0x80 && s[i+2] >= 0xaa && s[i+2] <= 0xae || s[i+1] == 0x81 && s[i+2] >= 0xa6 && s[i+2] <= 0xa9):
			return false
		}
	}
	return utf8.ValidString(s)
}

// VisibleWriter is an io.Writer that passes text on through Visible as it
// streams (a reply arriving in pieces): a character or a CR LF cut across
// two writes is held until the next. Flush writes what is held.
type VisibleWriter struct {
	w    io.Writer
	held []byte
}

// NewVisibleWriter returns a VisibleWriter writing to w.
func NewVisibleWriter(w io.Writer) *VisibleWriter { return &VisibleWriter{w: w} }

// Write writes p made visible; it reports len(p) unless w failed.
func (v *VisibleWriter) Write(p []byte) (int, error) {
	buf := append(v.held, p...)
	keep := len(buf)
	for j := len(buf) - 1; j >= 0 && j >= len(buf)-utf8.UTFMax; j-- {
		if utf8.RuneStart(buf[j]) {
			if !utf8.FullRune(buf[j:]) {
				keep = j // a character cut short
			}
			break
		}
	}
	if keep == len(buf) && keep > 0 && buf[keep-1] == '\r' {
		keep-- // a line feed may follow
	}
	v.held = append([]byte(nil), buf[keep:]...)
	if _, err := io.WriteString(v.w, Visible(string(buf[:keep]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write held back.
func (v *VisibleWriter) Flush() error {
	held := v.held
	v.held = nil
	_, err := io.WriteString(v.w, Visible(string(held)))
	return err
}
