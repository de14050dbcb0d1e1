package render

import (
	"regexp"
	"strings"
	"testing"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestFencesOfCommonLanguagesAreHighlighted(t *testing.T) {
	for lang, code := range map[string]string{
		"go":     "package main\n\nfunc main() { return }",
		"python": "def f(x):\n    return x + 1",
		"json":   `{"a": [1, true, null]}`,
		"yaml":   "a: 1\nb: [x, y]",
		"bash":   "for f in *; do echo \"$f\"; done",
		"ts":     "const x: number = 1;",
		"rust":   "fn main() { let x = 1; }",
		"html":   "<p class=\"x\">hi</p><script>var a = 1;</script>",
		"md":     "# Title\n\n- **a** `b`\n\n```python\ndef f(): pass\n```",
	} {
		lines := highlight(code, lang)
		out := strings.Join(lines, "\n")
		if !strings.Contains(out, "\x1b[38;5;") {
			t.Errorf("%s fence is not highlighted: %q", lang, out)
		}
		if got := sgr.ReplaceAllString(out, ""); got != "  "+strings.ReplaceAll(code, "\n", "\n  ") {
			t.Errorf("%s fence's text changed: %q", lang, got)
		}
	}
}

func TestAnUnknownLanguageIsShownPlain(t *testing.T) {
	code := "frobnicate the widgets\n  twice"
	out := strings.Join(highlight(code, "no-such-language"), "\n")
	if got := sgr.ReplaceAllString(out, ""); got != "  frobnicate the widgets\n    twice" {
		t.Errorf("unknown language's text changed: %q", got)
	}
	// Plain text takes only the theme's text colour.
	for _, c := range sgr.FindAllString(out, -1) {
		if c != "\x1b[38;5;231m" && c != "\x1b[0m" {
			t.Errorf("unknown language is styled %q: %q", c, out)
		}
	}
}

func TestAnUnlabelledGoFenceIsGuessed(t *testing.T) {
	out := strings.Join(highlight("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }", ""), "\n")
	if !strings.Contains(out, "\x1b[38;5;") {
		t.Errorf("unlabelled Go is not highlighted: %q", out)
	}
}
