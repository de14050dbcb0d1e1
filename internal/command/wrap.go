package command

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// WrapText wraps chatcli's own prose (notices, warnings, confirmations,
// reports) to a terminal width cells wide: each line longer than width is
// broken at its spaces, never inside a word (a word wider than width, a
// path say, stays whole on a line of its own). Widths are display widths:
// an accented letter is one cell, a CJK character two, an ANSI escape
// none. A continuation line is indented as its line is, and under the
// text after a leading label ("note: ", "aviso: ") when it has one. A
// line drawn as a box (it starts with a box-drawing character: the
// Portuguese fork message) is kept as it is drawn. A width of 0 or less
// leaves text as it is: what a pipe or a file gets.
func WrapText(text string, width int) string {
	if width <= 0 || !needsWrap(text, width) {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = wrapLine(l, width)
	}
	return strings.Join(lines, "\n")
}

// needsWrap reports whether a line of text is wider than width.
func needsWrap(text string, width int) bool {
	for l := range strings.SplitSeq(text, "\n") {
		if len(l) > width && displayWidth(l) > width {
			return true
		}
	}
	return false
}

// label matches a leading label a wrapped line's continuation lines are
// indented under: one word and a colon ("note: ", "aviso: ", "damaged: ").
var label = regexp.MustCompile(`^(?:\x1b\[[0-9;:]*m)*\pL[\pL-]*:(?:\x1b\[[0-9;:]*m)* `)

// wrapLine is WrapText of one line.
func wrapLine(l string, width int) string {
	if len(l) <= width || displayWidth(l) <= width || boxed(l) {
		return l
	}
	body := strings.TrimLeft(l, " ")
	lead := len(l) - len(body)
	hang := lead
	if m := label.FindString(body); m != "" {
		if n := lead + displayWidth(m); n <= width/3 {
			hang = n
		}
	}
	if hang >= width/2 {
		hang = 0
	}
	indent := strings.Repeat(" ", hang)
	var b strings.Builder
	b.WriteString(l[:lead])
	col, start := lead, true
	for body != "" {
		gap := len(body) - len(strings.TrimLeft(body, " "))
		sep := body[:gap]
		body = body[gap:]
		end := strings.IndexByte(body, ' ')
		if end < 0 {
			end = len(body)
		}
		word := body[:end]
		body = body[end:]
		if word == "" { // trailing spaces
			break
		}
		w := displayWidth(word)
		switch {
		case start:
			b.WriteString(word)
			col += w
			start = false
		case col+len(sep)+w <= width:
			b.WriteString(sep)
			b.WriteString(word)
			col += len(sep) + w
		default:
			b.WriteString("\n")
			b.WriteString(indent)
			b.WriteString(word)
			col = hang + w
		}
	}
	return b.String()
}

// boxed reports whether l starts with a box-drawing character (U+2500 to
// U+257F: "│", "╭").
func boxed(l string) bool {
	r, _ := utf8.DecodeRuneInString(l)
	return r >= 0x2500 && r <= 0x257f
}

// wrapping is a writer that passes what is written to w with each whole
// line wrapped to width (WrapText); what follows the last newline waits
// for the next one, or for flush.
type wrapping struct {
	w     io.Writer
	width int
	buf   []byte
}

// WrapTo is a writer wrapping the lines written to it to width for w
// (WrapText), and the function that writes out a last unfinished line;
// for width 0 or less, w itself (nothing to flush).
func WrapTo(w io.Writer, width int) (io.Writer, func()) {
	if width <= 0 {
		return w, func() {}
	}
	ww := &wrapping{w: w, width: width}
	return ww, ww.flush
}

func (ww *wrapping) Write(p []byte) (int, error) {
	ww.buf = append(ww.buf, p...)
	i := bytes.LastIndexByte(ww.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	_, err := io.WriteString(ww.w, WrapText(string(ww.buf[:i+1]), ww.width))
	ww.buf = append(ww.buf[:0], ww.buf[i+1:]...)
	return len(p), err
}

// flush writes out what was written after the last newline.
func (ww *wrapping) flush() {
	if len(ww.buf) > 0 {
		io.WriteString(ww.w, WrapText(string(ww.buf), ww.width))
		ww.buf = ww.buf[:0]
	}
}
