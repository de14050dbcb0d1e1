package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func render(src string) string { return NewMarkdown(func() int { return 40 }).Render(src) }

func TestCodeIsHighlightedAndKeptVerbatim(t *testing.T) {
	out := render("```go\nfunc main() {\n\tprintln(\"oi\")\n}\n```\n")
	if !strings.Contains(out, "\x1b[38;5;") {
		t.Fatalf("no colour in the code: %q", out)
	}
	want := "  func main() {\n  \tprintln(\"oi\")\n  }"
	if got := ansi.Strip(out); got != want {
		t.Fatalf("code text %q, want %q", got, want)
	}
}

func TestTableColumnsAreAligned(t *testing.T) {
	out := ansi.Strip(render("| name | n |\n|:-----|--:|\n| chatcli | 7 |\n| ç | 12 |\n"))
	want := "name    │  n\n────────┼───\nchatcli │  7\nç       │ 12"
	if out != want {
		t.Fatalf("table:\n%s\nwant:\n%s", out, want)
	}
}

func TestParagraphsWrapAtTheWidthAndListsIndent(t *testing.T) {
	out := ansi.Strip(render("# Plan\n\n" + strings.Repeat("word ", 20) + "\n\n- first\n- second item\n  - nested\n\n3. three\n4. four\n"))
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Fatalf("line wider than 40: %q", l)
		}
	}
	for _, want := range []string{"# Plan\n", "• first\n• second item\n  • nested", "3. three\n4. four"} {
		if !strings.Contains(out, want) {
			t.Fatalf("%q missing from:\n%s", want, out)
		}
	}
}

func TestInlineStylesAndLinks(t *testing.T) {
	out := render("Use `go test`, **bold**, *it* and [docs](https://go.dev).")
	if !strings.Contains(out, "\x1b[1m") || !strings.Contains(out, "\x1b[3m") {
		t.Fatalf("no bold or italic: %q", out)
	}
	if got := strings.Join(strings.Fields(ansi.Strip(out)), " "); got != "Use go test, bold, it and docs (https://go.dev)." {
		t.Fatalf("text %q", got)
	}
}

func TestTerminalControlsInTheReplyAreDropped(t *testing.T) {
	out := render("red \x1b]0;title\x07\x1b[31mtext\r\n")
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") || strings.Contains(out, "\x1b[31m") {
		t.Fatalf("a control sequence of the reply reached the terminal: %q", out)
	}
}

func TestStreamWritesEachBlockWhenItIsComplete(t *testing.T) {
	var out bytes.Buffer
	s := NewMarkdown(func() int { return 40 }).Stream(&out)
	s.Write([]byte("Hello **wor"))
	if out.Len() != 0 {
		t.Fatalf("an unfinished paragraph was written: %q", out.String())
	}
	s.Write([]byte("ld**.\n\n```py\nx = 1\n\n"))
	if got := ansi.Strip(out.String()); got != "Hello world.\n" {
		t.Fatalf("after the first block: %q", got)
	}
	s.Write([]byte("y = 2\n```\n"))
	if got := ansi.Strip(out.String()); got != "Hello world.\n\n  x = 1\n  \n  y = 2\n" {
		t.Fatalf("after the code block (a blank line inside it does not end it): %q", got)
	}
	s.Write([]byte("Bye"))
	s.Close()
	if got := ansi.Strip(out.String()); !strings.HasSuffix(got, "y = 2\n\nBye\n") {
		t.Fatalf("after Close: %q", got)
	}
}
