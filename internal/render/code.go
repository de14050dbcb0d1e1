package render

import (
	"bytes"
	"io/fs"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// The lexers and the style's escape sequences are built on first use, so a
// command that never highlights code pays nothing for them.
var (
	chromaOnce  sync.Once
	codeLexers  *chroma.LexerRegistry
	codeEscapes map[chroma.TokenType]string
	plainLexer  chroma.Lexer
)

// codeLanguages names the embedded lexer definitions.
var codeLanguages = []string{
	"bash", "c", "c++", "css", "diff", "docker", "html", "java",
	"javascript", "json", "python", "rust", "sql", "toml", "typescript",
	"yaml",
}

// loadChroma builds the lexers and the escape sequences of the style.
func loadChroma() {
	reg := chroma.NewLexerRegistry()
	reg.Register(goLexer())
	reg.Register(markdownLexer())
	for _, name := range codeLanguages {
		reg.Register(chroma.MustNewXMLLexer(chromaDefs, "chroma/"+name+".xml"))
	}
	style, err := fs.ReadFile(chromaDefs, "chroma/monokai.xml")
	if err != nil {
		panic(err)
	}
	codeEscapes = escapes256(chroma.MustNewXMLStyle(bytes.NewReader(style)))
	plainLexer = chroma.MustNewLexer(&chroma.Config{Name: "plaintext"}, plainRules)
	codeLexers = reg
}

// highlight returns code highlighted for a 256-colour terminal by the
// lexer of lang (else one guessed from the code, else none), each line
// indented two cells. Code that cannot be lexed is shown as it is.
func highlight(code, lang string) []string {
	chromaOnce.Do(loadChroma)
	code = strings.TrimRight(code, "\n")
	var lexer chroma.Lexer
	if lang != "" {
		lexer = codeLexers.Get(lang)
	}
	if lexer == nil {
		lexer = codeLexers.Analyse(code)
	}
	if lexer == nil {
		lexer = plainLexer
	}
	out := code
	if it, err := chroma.Coalesce(lexer).Tokenise(nil, code); err == nil {
		var b strings.Builder
		format256(&b, codeEscapes, it)
		out = b.String()
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return lines
}
