package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// printedKeys returns the string literals passed as the message key of
// every env.say call (command.Env's) and e.notifyf call (the engine's
// notices), of every Sprintf or Fprintf call on a Printer (a receiver
// named Lang or lang, or a call of lang()), and of every i18n.Errorf,
// i18n.Textf and i18n.Reword call, in the Go files of dirs (tests
// excluded).
func printedKeys(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	eachCall(t, dirs, func(where string, call *ast.CallExpr) {
		arg := keyArg(call)
		if arg < 0 || len(call.Args) <= arg {
			return
		}
		if id, ok := call.Args[arg].(*ast.Ident); ok && id.Name == "key" {
			return // a helper that passes its own key on (Env.say)
		}
		lit, ok := call.Args[arg].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			t.Errorf("%s: a message key that is not a literal", where)
			return
		}
		if s, _ := strconv.Unquote(lit.Value); s != "" { // i18n.Textf(""), nothing to say
			keys[s] = where
		}
	})
	return keys
}

// eachCall calls fn with every call expression of the Go files of dirs
// (tests excluded) and where it is (file:line:column).
func eachCall(t *testing.T, dirs []string, fn func(where string, call *ast.CallExpr)) {
	t.Helper()
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					fn(fset.Position(call.Pos()).String(), call)
				}
				return true
			})
		}
	}
}

// keyArg is the index of call's message key: 0 for say, sayErr, notifyf, a
// Printer's Sprintf, i18n.Errorf and i18n.Textf, 1 for a Printer's
// Fprintf and i18n.Reword, -1 when call prints no catalog message.
func keyArg(call *ast.CallExpr) int {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return -1
	}
	if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "env" && sel.Sel.Name == "say" || id.Name == "e" && sel.Sel.Name == "notifyf" || sel.Sel.Name == "sayErr") {
		return 0
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == "i18n" {
		switch sel.Sel.Name {
		case "Errorf", "Textf":
			return 0
		case "Reword":
			return 1
		}
		return -1
	}
	if !isPrinter(sel.X) {
		return -1
	}
	switch sel.Sel.Name {
	case "Sprintf":
		return 0
	case "Fprintf":
		return 1
	}
	return -1
}

// isPrinter reports whether x names a Printer: Lang, x.Lang, lang, a
// call of lang() or x.lang(), or the Plain() of one of them.
func isPrinter(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name == "Lang" || x.Name == "lang"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Lang" || x.Sel.Name == "lang"
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Plain" {
			return isPrinter(sel.X)
		}
		return isPrinter(x.Fun)
	}
	return false
}

// printingDirs are the packages whose messages and errors the catalog
// holds.
var printingDirs = []string{"../command", "../repl", "../conversation", "../../cmd/chatcli",
	"../session", "../journal", "../seal", "../config", "../provider", "../jsonscan", "../contexts", "../memory", "../compact", "../retention", "../shadow", "../picker", "../editor", "../index",
	"../importer", "../recent", "../reference",
	"../mcpserver", "../acpserver", "../gateway", "../gateway/telegram", "../gateway/slack", "../gateway/whatsapp"}

func TestEveryMessageIsInBothLanguages(t *testing.T) {
	inCatalog := map[string]bool{}
	for _, m := range append(catalogue(), textMessages()...) {
		if m.en == "" || m.pt == "" {
			t.Errorf("a message in one language only: en %q, pt %q", m.en, m.pt)
		}
		if inCatalog[m.en] {
			t.Errorf("%q is in the catalog twice", m.en)
		}
		inCatalog[m.en] = true
	}
	printed := printedKeys(t, printingDirs...)
	if len(printed) < 10 {
		t.Fatalf("found only %d messages printed by package command", len(printed))
	}
	for key, where := range printed {
		if !inCatalog[key] {
			t.Errorf("%s: %q has no Portuguese text in catalog.go", where, key)
		}
		delete(inCatalog, key)
	}
	for key := range inCatalog {
		t.Errorf("catalog entry %q is printed nowhere", key)
	}
}

// TestErrorsSayEveryArgumentInPortuguese checks that the Portuguese text
// of each error message says each of its arguments once or more, as the
// English does: an error never loses a name, a path or a number.
func TestErrorsSayEveryArgumentInPortuguese(t *testing.T) {
	pt := New(Portuguese).Plain()
	for _, m := range textMessages() {
		format := errorVerbs(m.en)
		args := argsFor(format)
		for i := range args {
			if _, ok := args[i].(int); ok {
				args[i] = 1000 + i
			}
		}
		out := pt.Sprintf(m.en, args...)
		for _, a := range args {
			if !strings.Contains(out, fmt.Sprint(a)) {
				t.Errorf("%q in Portuguese loses %v: %q", m.en, a, out)
			}
		}
		if strings.Contains(out, "%!") {
			t.Errorf("%q in Portuguese: %q", m.en, out)
		}
	}
}

// TestCommandErrorsAreInTheCatalog fails when a command-line or REPL
// error is worded in English only: an fmt.Errorf of packages command,
// repl or cmd/chatcli whose format has three words in a row (prose, not a
// usage synopsis such as "/session show [NAME]") must be an i18n.Errorf.
func TestCommandErrorsAreInTheCatalog(t *testing.T) {
	prose := regexp.MustCompile(`(?:^|[^/\w-])[a-z]{2,} [a-z]{2,} [a-z]{2,}`)
	eachCall(t, []string{"../command", "../repl", "../../cmd/chatcli"}, func(where string, call *ast.CallExpr) {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Errorf" || len(call.Args) == 0 {
			return
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "fmt" {
			return
		}
		if lit, ok := call.Args[0].(*ast.BasicLit); ok {
			if s, _ := strconv.Unquote(lit.Value); prose.MatchString(s) {
				t.Errorf("%s: %q is in English only; make it an i18n.Errorf with a line in errtexts.go", where, s)
			}
		}
	})
}

func TestPortugueseMessagesUseEveryArgumentRight(t *testing.T) {
	pt := New(Portuguese)
	for _, m := range catalogue() {
		args := argsFor(m.en)
		if out := pt.Sprintf(m.en, args...); strings.Contains(out, "%!") {
			t.Errorf("%q in Portuguese: %q", m.en, out)
		}
	}
	if got := pt.Sprintf("Saved %d messages as session %q; later turns are saved there too.\n", 4, "debug-api"); got != "Sessão 'debug-api' salva com sucesso.\n" {
		t.Fatalf("%q", got)
	}
	if got := New(English).Sprintf("Started a new conversation.\n"); got != "Started a new conversation.\n" {
		t.Fatalf("%q", got)
	}
}

func TestLanguageFromTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CHATCLI_LANG": "pt-BR", "LANG": "en_US.UTF-8"}, "pt-BR"},
		{map[string]string{"CHATCLI_LANG": "en", "LANG": "pt_BR.UTF-8"}, "en"},
		{map[string]string{"LANG": "pt_BR.UTF-8"}, "pt-BR"},
		{map[string]string{"LC_ALL": "pt_PT@euro", "LANG": "en_US"}, "pt-BR"},
		{map[string]string{"LANG": "C"}, "en"},
		{map[string]string{"LANG": "de_DE.UTF-8"}, "en"},
		{map[string]string{}, "en"},
	} {
		if got := FromEnv(func(k string) string { return c.env[k] }).Tag().String(); got != c.want {
			t.Errorf("%v: %s, want %s", c.env, got, c.want)
		}
	}
}

// argsFor returns arguments of the types the verbs of an English format
// take: an int for %d, a string otherwise.
func argsFor(format string) []any {
	var args []any
	pos := 0
	for _, m := range regexp.MustCompile(`%(?:\[(\d+)\])?([a-z])`).FindAllStringSubmatch(format, -1) {
		if m[1] != "" {
			pos, _ = strconv.Atoi(m[1])
		} else {
			pos++
		}
		for len(args) < pos {
			args = append(args, nil)
		}
		if m[2] == "d" {
			args[pos-1] = pos
		} else {
			args[pos-1] = "name" + strconv.Itoa(pos)
		}
	}
	return args
}

// errorVerbs is format with each %w as %v: the verbs an Error's arguments
// meet in its Portuguese text, its errors being strings by then.
func errorVerbs(format string) string { return strings.ReplaceAll(format, "%w", "%v") }
