package render

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Markdown renders CommonMark with the GitHub tables, strikethrough and
// task lists (goldmark) as styled terminal text: headings bold and
// coloured, emphasis, inline code coloured, fenced and indented code
// highlighted by chroma for the common languages (the lexer of the fence's
// language, else one guessed from the code) and indented two cells, lists
// with bullets or numbers, block quotes behind a bar, table columns aligned
// as the delimiter row says, links followed by their address. Paragraphs
// are wrapped at the width; code and tables are not. Control characters in
// the text other than tab and line feed are dropped (the text is a model's,
// not trusted to drive the terminal).
type Markdown struct {
	// Width returns the terminal width in cells; nil or <= 0 means 80.
	Width func() int
	md    goldmark.Markdown
}

// NewMarkdown returns a renderer whose lines fit width().
func NewMarkdown(width func() int) *Markdown {
	return &Markdown{Width: width, md: goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))}
}

// Styles of the rendered elements.
var (
	headingStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))
	codeStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("203"))
	linkStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("39"))
	quoteStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("8"))
	boldStyle    = lipgloss.NewStyle().Bold(true)
	italicStyle  = lipgloss.NewStyle().Italic(true)
	strikeStyle  = lipgloss.NewStyle().Strikethrough(true)
)

// Render returns src rendered, one line per element of the result joined
// by line feeds, with a blank line between blocks and no final line feed.
func (m *Markdown) Render(src string) string {
	source := []byte(Visible(src)) // the model's text, made visible before any style is added
	doc := m.md.Parser().Parse(text.NewReader(source))
	r := renderer{src: source}
	return strings.Join(r.blocks(doc, m.width()), "\n")
}

func (m *Markdown) width() int {
	if m.Width == nil {
		return 80
	}
	if w := m.Width(); w > 0 {
		return w
	}
	return 80
}

// renderer walks one parsed document.
type renderer struct{ src []byte }

// blocks renders the block children of n, a blank line between them.
func (r renderer) blocks(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight(c) {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// tight reports whether block c follows its previous sibling with no
// blank line: the blocks of a tight list item.
func tight(c ast.Node) bool {
	item, ok := c.Parent().(*ast.ListItem)
	if !ok {
		return false
	}
	list, ok := item.Parent().(*ast.List)
	return ok && list.IsTight
}

// block renders one block node as lines at most width cells wide (code
// and tables excepted).
func (r renderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(r.inline(n), width)
	case *ast.Heading:
		return wrap(headingStyle.Render(strings.Repeat("#", n.Level)+" "+r.inline(n)), width)
	case *ast.FencedCodeBlock:
		return highlight(r.lines(n), string(n.Language(r.src)))
	case *ast.CodeBlock:
		return highlight(r.lines(n), "")
	case *ast.Blockquote:
		var out []string
		for _, l := range r.blocks(n, max(width-2, 10)) {
			out = append(out, quoteStyle.Render("│ ")+l)
		}
		return out
	case *ast.List:
		return r.list(n, width)
	case *ast.ThematicBreak:
		return []string{quoteStyle.Render(strings.Repeat("─", min(width, 40)))}
	case *ast.HTMLBlock:
		return strings.Split(strings.TrimRight(r.lines(n), "\n"), "\n")
	case *east.Table:
		return r.table(n)
	}
	return r.blocks(n, width)
}

// list renders the items of a list, each behind its bullet or number.
func (r renderer) list(n *ast.List, width int) []string {
	var out []string
	i := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = fmt.Sprintf("%d. ", i)
			i++
		}
		pad := strings.Repeat(" ", ansi.StringWidth(marker))
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		for k, l := range r.blocks(item, max(width-len(pad), 10)) {
			if k == 0 {
				out = append(out, marker+l)
			} else {
				out = append(out, pad+l)
			}
		}
	}
	return out
}

// lines returns the raw text of a block's lines.
func (r renderer) lines(n ast.Node) string {
	var b strings.Builder
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

// wrap word-wraps s (which may hold line feeds and styles) at width.
func wrap(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}
