package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// inline renders the inline children of n as one styled string; hard line
// breaks become line feeds, soft ones spaces.
func (r renderer) inline(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.WriteString(r.span(c))
	}
	return b.String()
}

// span renders one inline node.
func (r renderer) span(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Text:
		s := string(n.Value(r.src))
		switch {
		case n.HardLineBreak():
			s += "\n"
		case n.SoftLineBreak():
			s += " "
		}
		return s
	case *ast.String:
		return string(n.Value)
	case *ast.CodeSpan:
		return codeStyle.Render(r.plain(n))
	case *ast.Emphasis:
		if n.Level >= 2 {
			return boldStyle.Render(r.inline(n))
		}
		return italicStyle.Render(r.inline(n))
	case *east.Strikethrough:
		return strikeStyle.Render(r.inline(n))
	case *ast.Link:
		label, dest := r.inline(n), string(n.Destination)
		if ansi.Strip(label) == dest || dest == "" {
			return linkStyle.Render(label)
		}
		return linkStyle.Render(label) + " (" + dest + ")"
	case *ast.AutoLink:
		return linkStyle.Render(string(n.URL(r.src)))
	case *ast.Image:
		return "[image: " + r.inline(n) + "] (" + string(n.Destination) + ")"
	case *east.TaskCheckBox:
		if n.IsChecked {
			return "[x] "
		}
		return "[ ] "
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
		return b.String()
	}
	return r.inline(n)
}

// plain returns the text of n's inline children without styles.
func (r renderer) plain(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Value(r.src))
			continue
		}
		b.WriteString(ansi.Strip(r.span(c)))
	}
	return b.String()
}
