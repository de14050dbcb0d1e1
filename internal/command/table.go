package command

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/ansi"
)

// colFit is how fitTable may narrow a column of a table to make it fit a
// terminal.
type colFit int

const (
	// keep: counts, sizes, dates, short words; never narrowed.
	keep colFit = iota
	// name identifies its row: narrowed only when the free text cannot
	// give enough, and then cut with "…", so a cut name is marked.
	name
	// wrap: free text (values, paths, rules), wrapped under itself at
	// spaces and after '-' (a longer word is broken), so nothing of it
	// is lost.
	wrap
	// clip: free text where one line a row matters more (titles), cut
	// with "…".
	clip
	// clipLeft is clip keeping the end (folders: "…/src/app").
	clipLeft
)

// Narrowest widths fitTable gives a column, in display cells (a column is
// never made narrower than the longest word of its heading).
const (
	minFreeCells = 10
	minNameCells = 8
	tableGap     = 2 // cells between two columns
)

// writeRows prints rows under head (nil for no headings) as a table.
// Fitted to width when it is above 0 (a terminal's, fitTable); else
// aligned by text/tabwriter as chatcli has always printed it, what
// scripts read, never cut.
func writeRows(w io.Writer, head []string, rows [][]string, fits []colFit, width int) {
	if width > 0 {
		for _, l := range fitTable(head, rows, fits, width) {
			fmt.Fprintln(w, l)
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range withHead(head, rows) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

// writeAligned is writeRows for the tables chatcli has always aligned by
// display width (writeTable) rather than by tabwriter: rows[0] are the
// headings.
func writeAligned(w io.Writer, rows [][]string, fits []colFit, width int) {
	if width <= 0 {
		writeTable(w, rows)
		return
	}
	for _, l := range fitTable(rows[0], rows[1:], fits, width) {
		fmt.Fprintln(w, l)
	}
}

// headings are the cells of a tab-separated catalog line of headings
// ("SETTING\tVALUE\tSOURCE\n").
func headings(line string) []string { return strings.Split(strings.TrimSuffix(line, "\n"), "\t") }

// withHead is rows after head, when there is one.
func withHead(head []string, rows [][]string) [][]string {
	if head == nil {
		return rows
	}
	return append([][]string{head}, rows...)
}

// fitTable lays rows out under head (nil for none) as lines of columns
// two cells apart, each as wide as its widest cell in display width (ANSI
// escapes take none, a CJK character two), the last one unpadded. When
// that is wider than width, headings wider than their column's cells are
// wrapped at their spaces, then the widest free-text column is narrowed
// (wrap, clip, clipLeft), down to minFreeCells, then the names, down to
// minNameCells (fitWidths). A table that still does not fit is printed at
// those widths.
func fitTable(head []string, rows [][]string, fits []colFit, width int) []string {
	all := withHead(head, rows)
	if len(all) == 0 {
		return nil
	}
	widths := fitWidths(head, all, fits, width)
	var out []string
	var b strings.Builder
	for k, r := range all {
		cells := make([][]string, len(r))
		height := 1
		for i, c := range r {
			cells[i] = []string{c}
			switch {
			case i >= len(widths) || displayWidth(c) <= widths[i]:
			case head != nil && k == 0:
				cells[i] = strings.Split(ansi.Wrap(c, widths[i], ""), "\n")
			default:
				cells[i] = narrow(c, fits[i], widths[i])
			}
			height = max(height, len(cells[i]))
		}
		for line := range height {
			b.Reset()
			for i := range r {
				piece := ""
				if line < len(cells[i]) {
					piece = cells[i][line]
				}
				b.WriteString(piece)
				if i < len(r)-1 {
					b.WriteString(strings.Repeat(" ", max(widths[i]-displayWidth(piece), 0)+tableGap))
				}
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
	}
	return out
}

// fitWidths are the columns' widths for fitTable: each as wide as its
// widest cell, then, while the table is wider than width, narrowed pass
// by pass: the headings wider than their column's cells (wrapped at
// their spaces), the free text, the names.
func fitWidths(head []string, rows [][]string, fits []colFit, width int) []int {
	n := len(rows[0])
	widths, cells, words := make([]int, n), make([]int, n), make([]int, n)
	for k, r := range rows {
		for i, c := range r[:min(len(r), n)] {
			widths[i] = max(widths[i], displayWidth(c))
			if head == nil || k > 0 {
				cells[i] = max(cells[i], displayWidth(c))
			}
		}
	}
	for i, h := range head[:min(len(head), n)] {
		for _, w := range strings.Fields(h) {
			words[i] = max(words[i], displayWidth(w))
		}
	}
	total := tableGap * (n - 1)
	for _, w := range widths {
		total += w
	}
	for _, pass := range []func(i int, f colFit) int{
		func(i int, f colFit) int { return pick(f == keep, max(cells[i], words[i])) },
		func(i int, f colFit) int { return pick(f != keep && f != name, max(minFreeCells, words[i])) },
		func(i int, f colFit) int { return pick(f == name, max(minNameCells, words[i])) },
	} {
		for total > width {
			best := -1
			for i, w := range widths {
				f := keep
				if i < len(fits) {
					f = fits[i]
				}
				if floor := pass(i, f); floor >= 0 && w > floor && (best < 0 || w > widths[best]) {
					best = i
				}
			}
			if best < 0 {
				break
			}
			widths[best]--
			total--
		}
	}
	return widths
}

// pick is floor when in, else -1 (a column the pass leaves alone).
func pick(in bool, floor int) int {
	if !in {
		return -1
	}
	return floor
}

// narrow fits cell c into n cells as f says: its lines.
func narrow(c string, f colFit, n int) []string {
	switch f {
	case wrap:
		return carrySGR(strings.Split(ansi.Wrap(c, n, "-/."), "\n")) // a URL or path breaks after a / or a .
	case clipLeft:
		return []string{ansi.TruncateLeft(c, displayWidth(c)-n+1, "…")}
	}
	return []string{ansi.Truncate(c, n, "…")}
}

// sgr matches an SGR escape sequence (colours, bold).
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// carrySGR makes each line of a wrapped cell carry the colours in effect
// where it starts and reset them where it ends, so they neither stop at
// the break nor spill into the next column.
func carrySGR(lines []string) []string {
	active := ""
	for i, l := range lines {
		if active != "" {
			l = active + l
		}
		for _, seq := range sgr.FindAllString(lines[i], -1) {
			if seq == "\x1b[m" || seq == "\x1b[0m" {
				active = ""
			} else {
				active += seq
			}
		}
		if active != "" && i < len(lines)-1 {
			l += "\x1b[m"
		}
		lines[i] = l
	}
	return lines
}

// displayWidth is the display width of s: cellWidth's (fast for ASCII)
// unless s holds escape sequences, which ansi measures as none.
func displayWidth(s string) int {
	if strings.IndexByte(s, 0x1b) < 0 {
		return cellWidth(s)
	}
	return ansi.StringWidth(s)
}
