package markup

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Dialect is one platform's markup.
type Dialect struct {
	// Escape makes literal text safe in the markup.
	Escape func(string) string
	// Bold, Italic, Strike and Code wrap already converted inline text.
	Bold, Italic, Strike, Code func(string) string
	// Pre writes a code block of language lang ("" when none); code is
	// escaped already.
	Pre func(lang, code string) string
	// Link writes a link with converted label text to url (raw).
	Link func(label, url string) string
	// Quote writes a block quote of converted blocks.
	Quote func(body string) string
	// Bullet starts an unordered list item.
	Bullet string
}

var md = goldmark.New(goldmark.WithExtensions(extension.Strikethrough))

// Convert returns src, Markdown, in d's markup: blocks separated by a blank
// line, no final line feed.
func Convert(src string, d Dialect) string {
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	c := converter{src: source, d: d}
	return c.blocks(doc)
}

type converter struct {
	src []byte
	d   Dialect
}

func (c converter) blocks(n ast.Node) string {
	var parts []string
	for b := n.FirstChild(); b != nil; b = b.NextSibling() {
		if s := c.block(b); s != "" {
			parts = append(parts, s)
		}
	}
	sep := "\n\n"
	if l, ok := n.(*ast.ListItem); ok && l.Parent() != nil && l.Parent().(*ast.List).IsTight {
		sep = "\n"
	}
	return strings.Join(parts, sep)
}

func (c converter) block(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return c.inline(n)
	case *ast.Heading:
		return c.d.Bold(c.inline(n))
	case *ast.ThematicBreak:
		return "———"
	case *ast.FencedCodeBlock:
		return c.d.Pre(string(n.Language(c.src)), c.d.Escape(c.lines(n)))
	case *ast.CodeBlock:
		return c.d.Pre("", c.d.Escape(c.lines(n)))
	case *ast.HTMLBlock:
		return c.d.Escape(c.lines(n))
	case *ast.Blockquote:
		return c.d.Quote(c.blocks(n))
	case *ast.List:
		return c.list(n)
	}
	return c.blocks(n)
}

// list writes one item per line group, continuation lines indented.
func (c converter) list(l *ast.List) string {
	var items []string
	num := l.Start
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		marker := c.d.Bullet
		if l.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		body := strings.ReplaceAll(c.blocks(it), "\n", "\n"+strings.Repeat(" ", len([]rune(marker))))
		items = append(items, marker+body)
	}
	sep := "\n"
	if !l.IsTight {
		sep = "\n\n"
	}
	return strings.Join(items, sep)
}

// lines is the raw text of a code or HTML block, without its final line
// feed.
func (c converter) lines(n ast.Node) string {
	var b strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		b.Write(seg.Value(c.src))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (c converter) inline(n ast.Node) string {
	var b strings.Builder
	for s := n.FirstChild(); s != nil; s = s.NextSibling() {
		b.WriteString(c.span(s))
	}
	return b.String()
}

func (c converter) span(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Text:
		s := c.d.Escape(string(n.Value(c.src)))
		if n.HardLineBreak() || n.SoftLineBreak() {
			s += "\n"
		}
		return s
	case *ast.String:
		return c.d.Escape(string(n.Value))
	case *ast.CodeSpan:
		return c.d.Code(c.d.Escape(c.plain(n)))
	case *ast.Emphasis:
		if n.Level >= 2 {
			return c.d.Bold(c.inline(n))
		}
		return c.d.Italic(c.inline(n))
	case *east.Strikethrough:
		return c.d.Strike(c.inline(n))
	case *ast.Link:
		return c.d.Link(c.inline(n), string(n.Destination))
	case *ast.AutoLink:
		u := string(n.URL(c.src))
		return c.d.Link(c.d.Escape(u), u)
	case *ast.Image:
		return c.d.Link(c.inline(n), string(n.Destination))
	case *ast.RawHTML:
		var b strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(c.src))
		}
		return c.d.Escape(b.String())
	}
	return c.inline(n)
}

// plain is the literal text of n's children (code spans).
func (c converter) plain(n ast.Node) string {
	var b strings.Builder
	for s := n.FirstChild(); s != nil; s = s.NextSibling() {
		switch s := s.(type) {
		case *ast.Text:
			b.Write(s.Value(c.src))
		case *ast.String:
			b.Write(s.Value)
		}
	}
	return b.String()
}
