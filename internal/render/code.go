package render

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// codeTheme is the chroma style of highlighted code.
const codeTheme = "monokai"

// highlight returns code highlighted for a 256-colour terminal by the
// chroma lexer of lang (else one guessed from the code, else none), each
// line indented two cells. Code chroma cannot lex is shown as it is.
func highlight(code, lang string) []string {
	code = strings.TrimRight(code, "\n")
	lexer := lexers.Get(lang)
	if lexer == nil {
		lexer = lexers.Analyse(code)
	}
	if lexer == nil {
		lexer = lexers.Fallback
	}
	out := code
	if it, err := chroma.Coalesce(lexer).Tokenise(nil, code); err == nil {
		var b strings.Builder
		if formatters.TTY256.Format(&b, styles.Get(codeTheme), it) == nil {
			out = b.String()
		}
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return lines
}
