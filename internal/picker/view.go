package picker

import (
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/render"
)

// Column widths in cells; the title takes what is left.
const (
	nameCells   = 26
	ageCells    = 14
	countCells  = 5
	folderCells = 16
	// previewLines is the preview pane's height at 24 rows and more.
	previewLines = 7
)

var (
	selected = lipgloss.NewStyle().Reverse(true)
	dim      = lipgloss.NewStyle().Faint(true)
)

// listHeight is how many items fit: the window less the header, the
// input line, the column names, the preview's rule and lines, and the
// status line.
func (m model) listHeight() int { return max(1, m.height-5-m.previewHeight()) }

func (m model) previewHeight() int { return max(0, min(previewLines, (m.height-6)/3)) }

func (m model) View() tea.View {
	var b strings.Builder
	lang := m.src.Lang
	items := m.items()
	all, here := lang.Sprintf("all folders"), lang.Sprintf("this folder")
	scope, other := all, here
	if m.scope != "" {
		scope, other = here, all
	}
	head := lang.Sprintf("Resume a session · %s · %d shown of %d", scope, len(items), len(m.list.rows))
	if m.loading {
		head += lang.Sprintf(" · loading…")
	}
	if m.src.Folder != "" {
		head += " · Tab: " + other
	}
	line(&b, head, m.width)
	switch m.mode {
	case modeRename:
		line(&b, m.name.View(), m.width)
	case modeConfirm:
		it, _ := m.current()
		line(&b, lang.Sprintf("Move %q to the trash? [y/N]", it.Name), m.width)
	default:
		line(&b, m.filter.View(), m.width)
	}
	// The folder column only when the rows may differ in it.
	folderCol := 0
	if m.scope == "" {
		folderCol = folderCells + 1
	}
	titleCells := max(8, m.width-2-nameCells-ageCells-countCells-3-folderCol)
	columns := func(name, title, age, count, folder string) string {
		s := cell(name, nameCells) + " " + cell(title, titleCells) + " " + cell(age, ageCells) + " " + cellRight(count, countCells)
		if folderCol > 0 {
			s += " " + cell(folder, folderCells)
		}
		return s
	}
	line(&b, dim.Render("  "+columns(lang.Sprintf("NAME"), lang.Sprintf("TITLE"), lang.Sprintf("UPDATED"), lang.Sprintf("MSGS"), lang.Sprintf("FOLDER"))), m.width)
	now := time.Now()
	if m.src.Now != nil {
		now = m.src.Now()
	}
	h := m.listHeight()
	for i := m.top; i < m.top+h; i++ {
		if i >= len(items) {
			b.WriteString("\n")
			continue
		}
		it := items[i]
		title := render.VisibleLine(it.Title)
		if it.snippet != "" {
			title = "“" + render.VisibleLine(it.snippet) + "”"
		}
		row := columns(render.VisibleLine(it.Name), title, age(lang, it.UpdatedAt, now), fmt.Sprint(it.Messages), folder(it.Folder))
		if i == m.cursor {
			line(&b, selected.Render("> "+row), m.width)
		} else {
			line(&b, "  "+row, m.width)
		}
	}
	m.viewPreview(&b, items)
	status := m.status
	if status == "" {
		status = lang.Sprintf("Enter resume · Ctrl+R rename · Ctrl+D trash · Tab this folder/all · Esc cancel")
	}
	b.WriteString(ansi.Truncate(dim.Render(status), m.width, "…"))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

// viewPreview draws the rule and the highlighted row's last messages.
func (m model) viewPreview(b *strings.Builder, items []item) {
	ph := m.previewHeight()
	if ph == 0 {
		return
	}
	var text string
	if m.cursor < len(items) {
		name := items[m.cursor].Name
		line(b, dim.Render(cell("── "+render.VisibleLine(name)+" ", m.width)), m.width)
		text = m.preview[name]
		if text == "" {
			text = "…"
		}
	} else {
		line(b, dim.Render(strings.Repeat("─", m.width)), m.width)
		switch {
		case m.loading:
		case len(m.list.rows) == 0:
			text = m.src.Lang.Sprintf("No saved sessions yet. Esc, then chat: the conversation is kept as you leave.")
		default:
			text = m.src.Lang.Sprintf("No session matches.")
		}
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > ph {
		lines = lines[len(lines)-ph:] // the newest messages
	}
	for i := range ph {
		if i < len(lines) {
			line(b, lines[i], m.width)
		} else {
			b.WriteString("\n")
		}
	}
}

// line writes s clipped to width cells and a newline.
func line(b *strings.Builder, s string, width int) {
	b.WriteString(ansi.Truncate(strings.ReplaceAll(s, "\t", " "), width, "…"))
	b.WriteString("\n")
}

// cell is s on one line, clipped or padded to exactly w cells (display
// width: CJK and emoji count two).
func cell(s string, w int) string {
	s = ansi.Truncate(strings.Join(strings.Fields(s), " "), w, "…")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

func cellRight(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return strings.Repeat(" ", max(0, w-ansi.StringWidth(s))) + s
}

// age is t relative to now in lang: "3 hours ago".
func age(lang *i18n.Printer, t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	if now.Sub(t) < time.Second {
		return lang.Sprintf("now")
	}
	return lang.Age(t, now)
}

// folder shortens a folder for its column: the home folder as ~, and the
// end kept when it is too long.
func folder(f string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(f, home) {
		f = "~" + strings.TrimPrefix(f, home)
	}
	if w := ansi.StringWidth(f); w > folderCells {
		f = ansi.TruncateLeft(f, w-folderCells+1, "…")
	}
	return f
}
