package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table with its columns padded to their widest cell
// and aligned as the delimiter row says, the header bold, a rule under it.
func (r renderer) table(t *east.Table) []string {
	var rows [][]string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.inline(c))
		}
		rows = append(rows, cells)
	}
	widths := make([]int, len(t.Alignments))
	for _, row := range rows {
		for i, c := range row {
			if i < len(widths) {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			}
		}
	}
	var out []string
	for k, row := range rows {
		cells := make([]string, len(widths))
		for i := range widths {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			cells[i] = align(c, widths[i], t.Alignments[i])
			if _, header := t.FirstChild().(*east.TableHeader); header && k == 0 {
				cells[i] = boldStyle.Render(cells[i])
			}
		}
		out = append(out, strings.Join(cells, quoteStyle.Render(" │ ")))
		if k == 0 {
			rule := make([]string, len(widths))
			for i, w := range widths {
				rule[i] = strings.Repeat("─", w)
			}
			out = append(out, quoteStyle.Render(strings.Join(rule, "─┼─")))
		}
	}
	return out
}

// align pads s to width cells: right, centred or left.
func align(s string, width int, a east.Alignment) string {
	gap := max(width-ansi.StringWidth(s), 0)
	switch a {
	case east.AlignRight:
		return strings.Repeat(" ", gap) + s
	case east.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}
