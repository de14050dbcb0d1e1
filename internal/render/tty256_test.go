package render

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
)

// The formatter of tty256.go must write what chroma's formatters.TTY256
// writes; these tests hold it to that, byte for byte.

// chroma256 is code's tokens by lexer as formatters.TTY256 writes them in
// style.
func chroma256(t *testing.T, lexer chroma.Lexer, style *chroma.Style, code string) string {
	t.Helper()
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := formatters.TTY256.Format(&b, style, it); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// ours256 is the same through escapes256 and format256.
func ours256(t *testing.T, lexer chroma.Lexer, style *chroma.Style, code string) string {
	t.Helper()
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	format256(&b, escapes256(style), it)
	return b.String()
}

func monokai(t *testing.T) *chroma.Style {
	t.Helper()
	def, err := fs.ReadFile(chromaDefs, "chroma/monokai.xml")
	if err != nil {
		t.Fatal(err)
	}
	return chroma.MustNewXMLStyle(bytes.NewReader(def))
}

func TestEveryLexerFormatsAsChromaTTY256(t *testing.T) {
	chromaOnce.Do(loadChroma)
	style := monokai(t)
	samples := []string{
		"package main\n\nimport \"fmt\"\n\nfunc main() {\r\n\tfmt.Println(`raw\nstring`, 1.5e3) // note\n}\n",
		"#!/bin/sh\nfor f in *; do echo \"$f\" | grep -v '^#' > /dev/null; done\n",
		"def f(x: int) -> str:\n    \"\"\"doc\"\"\"\n    return f'{x!r}' + r'\\n' if x else None\n\n\n@dec\nclass A: pass\n",
		"<!doctype html>\n<p class=\"x\">hi &amp; bye</p><script>var a = 1;</script><style>p { color: #fff }</style>\n",
		"{\"a\": [1, true, null, -2.5e10], \"b\": {\"c\": \"\\u00e9\"}}\n",
		"# Title\n\n- **a** `b` _c_ [l](http://x)\n\n```python\ndef f(): pass\n```\n> quote\n",
		"SELECT a, COUNT(*) FROM t WHERE b = 'x' -- c\nGROUP BY a;\n",
		"fn main() { let x: u8 = 1; println!(\"{x}\"); } /* c */\n#[derive(Debug)]\nstruct S;\n",
		"--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
		"FROM alpine:3\nRUN apk add git && \\\n    echo ok\nENV A=b\n",
		"a: 1\nb: [x, 'y', \"z\"]\n# c\nc: |\n  text\n",
		"[table]\nkey = \"value\" # c\nn = 1979-05-27T07:32:00Z\n",
		"#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 0x1F); return 0; }\n",
		"template <typename T> class A : public B { std::vector<T> v; };\n",
		"public class A { @Override public String toString() { return \"a\" + 'b'; } }\n",
		"const x: number = 1; let s = `t ${x}`; interface I { a?: string }\n",
		"frobnicate the widgets\n  twice\n\n",
	}
	lexers := []chroma.Lexer{plainLexer}
	for _, name := range codeLexers.Names(false) {
		lexers = append(lexers, codeLexers.Get(name))
	}
	for _, lexer := range lexers {
		for i, code := range samples {
			if want, got := chroma256(t, lexer, style, code), ours256(t, lexer, style, code); got != want {
				t.Errorf("%s, sample %d:\n got %q\nwant %q", lexer.Config().Name, i, got, want)
			}
		}
	}
}

func TestEveryTokenTypeFormatsAsChromaTTY256(t *testing.T) {
	style := monokai(t)
	var tokens []chroma.Token
	for tt := range chroma.StandardTypes {
		tokens = append(tokens, chroma.Token{Type: tt, Value: "a\r\nb\n\nc"}, chroma.Token{Type: tt, Value: "\n"})
	}
	tokens = append(tokens, chroma.Token{Type: chroma.TokenType(12345), Value: "x\r\r\n"})
	var want bytes.Buffer
	if err := formatters.TTY256.Format(&want, style, chroma.Literator(tokens...)); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	format256(&got, escapes256(style), chroma.Literator(tokens...))
	if got.String() != want.String() {
		t.Errorf("got %q\nwant %q", got.String(), want.String())
	}
}

// TestEveryColourMapsAsChromaTTY256 checks the palette and the nearest
// colour over a grid of colours, as foreground and background, with bold,
// italic and underline. A colour equally near two palette colours is
// skipped: chroma's choice between them follows its map's order.
func TestEveryColourMapsAsChromaTTY256(t *testing.T) {
	lexer := chroma.MustNewLexer(&chroma.Config{Name: "k"}, func() chroma.Rules {
		return chroma.Rules{"root": {{Pattern: `\w+`, Type: chroma.Keyword}, {Pattern: `\s+`, Type: chroma.Text}}}
	})
	for r := 0; r < 256; r += 15 {
		for g := 0; g < 256; g += 15 {
			for b := 0; b < 256; b += 15 {
				c := chroma.NewColour(uint8(r), uint8(g), uint8(b))
				if tied(c) {
					continue
				}
				style := chroma.MustNewStyle("t", chroma.StyleEntries{
					chroma.Keyword: fmt.Sprintf("bold italic underline %s bg:%s", c, c),
				})
				if want, got := chroma256(t, lexer, style, "a b"), ours256(t, lexer, style, "a b"); got != want {
					t.Fatalf("%s: got %q, want %q", c, got, want)
				}
			}
		}
	}
}

// tied reports whether two different palette colours are nearest to c.
func tied(c chroma.Colour) bool {
	best, n := -1.0, 0
	var bestColour chroma.Colour
	for i := range 256 {
		p := palette256(i)
		switch d := p.Distance(c); {
		case best < 0 || d < best:
			best, bestColour, n = d, p, 1
		case d == best && p != bestColour:
			n++
		}
	}
	return n > 1
}
