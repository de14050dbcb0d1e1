package command

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rivo/uniseg"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/session"
)

// listTitleChars is the title column's width in characters.
const listTitleChars = 60

// WriteList prints session headers as a table: name (marked * when bound),
// message count, last update in local time and title. Unreadable files get
// a row saying why. See WriteListAs.
func WriteList(w io.Writer, list []session.Header, bound string) {
	WriteListAs(w, list, bound, ListFormat{})
}

// ListFormat are the choices of WriteListAs.
type ListFormat struct {
	// Now, when set, turns the UPDATED column into ages relative to it
	// ("3 hours ago"), as on a terminal.
	Now time.Time
	// Folders, when set, adds a FOLDER column: the folder each session
	// was last used in, by name.
	Folders map[string]string
	// Width, when set, is the terminal's width in cells: titles (and
	// folders, from the left) are cut with "…" so that each row fits in
	// it (fitTable).
	Width int
	// Lang is the language of the headings and notes; nil is English.
	Lang *i18n.Printer
}

// WriteListAs is WriteList with the columns of f. Columns are aligned by
// display width (a CJK character or an emoji takes two cells).
func WriteListAs(w io.Writer, list []session.Header, bound string, f ListFormat) {
	lang := f.Lang
	if len(list) == 0 {
		lang.Fprintf(w, "No saved sessions. /session save NAME saves this one.\n")
		return
	}
	rows := [][]string{{lang.Sprintf("NAME"), lang.Sprintf("MESSAGES"), lang.Sprintf("UPDATED"), lang.Sprintf("TITLE")}}
	if f.Folders != nil {
		rows[0] = append(rows[0], lang.Sprintf("FOLDER"))
	}
	for _, h := range list {
		name := render.VisibleLine(h.Name)
		if h.Name == bound {
			name += " *"
		}
		if note := session.LookAlike(h.Name); note != "" { // it may print like another name
			name += " (" + note + ")"
		}
		var row []string
		if h.Err != nil {
			row = []string{name, "-", "-", lang.Sprintf("(unreadable: %s)", render.VisibleLine(message.Clip(h.Err.Error(), 120)))}
		} else {
			updated := h.UpdatedAt.Local().Format("2006-01-02 15:04")
			if !f.Now.IsZero() {
				updated = lang.Age(h.UpdatedAt, f.Now)
			}
			row = []string{name, fmt.Sprint(h.Messages), updated, render.VisibleLine(message.Clip(h.Title, listTitleChars))}
		}
		if f.Folders != nil {
			row = append(row, f.Folders[h.Name])
		}
		rows = append(rows, row)
	}
	fits := []colFit{name, keep, keep, clip, clipLeft}
	writeAligned(w, rows, fits[:len(rows[0])], f.Width)
}

// writeTable prints rows with columns two cells apart, each as wide as
// its widest cell in display width (uniseg); the last column is not
// padded.
func writeTable(w io.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-cellWidth(c)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// cellWidth is the display width of s: its length for printable ASCII
// (most names, counts and dates, at memory speed), else the sum of its
// grapheme clusters' widths (uniseg; StringWidth would also step through
// word, sentence and line boundaries, which a width does not need).
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			// Printable ASCII bytes are one cell each, and a cluster
			// boundary lies between any two of them (UAX #29 GB999): the
			// clusters are measured from the last one before byte i.
			n, state := max(i-1, 0), -1
			s = s[n:]
			for s != "" {
				var w int
				_, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
				n += w
			}
			return n
		}
	}
	return len(s)
}

// WriteTranscript prints a history for reading: one block per message with
// its position and role; tool calls with their name and arguments.
func WriteTranscript(w io.Writer, h []message.Message) { writeMessages(nil, w, h, 1) }

// WriteSession prints a stored session: a header line with its name,
// message count and update time, then its messages (WriteTranscript).
func WriteSession(w io.Writer, name string, s *session.Session) { WriteSessionIn(nil, w, name, s) }

// WriteSessionIn is WriteSession with its labels in lang (nil: English).
func WriteSessionIn(lang *i18n.Printer, w io.Writer, name string, s *session.Session) {
	lang.Fprintf(w, "Session %s · %d messages · updated %s\n", render.VisibleLine(name), len(s.History), s.UpdatedAt.Local().Format("2006-01-02 15:04"))
	writeMessages(lang, w, s.History, 1)
}

// writeMessages prints messages numbered from first, their labels in
// lang.
func writeMessages(lang *i18n.Printer, w io.Writer, h []message.Message, first int) {
	for k, m := range h {
		i := first + k - 1
		label := string(m.Role)
		if m.Role == message.RoleTool {
			label += lang.Sprintf(" (result of %s)", render.VisibleLine(m.ToolCallID))
		}
		if m.Meta != nil && m.Meta.Unanswered {
			label += lang.Sprintf(" (unanswered)")
		}
		fmt.Fprintf(w, "\n#%d %s\n", i+1, label)
		if m.Content != "" {
			fmt.Fprintln(w, render.Visible(m.Content))
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(w, "→ %s(%s) [%s]\n", render.VisibleLine(c.Name), render.Visible(c.Arguments), render.VisibleLine(c.ID))
		}
	}
}
