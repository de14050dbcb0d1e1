package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSearchFiles(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	put(t, base, map[string]string{"outside.go": "func Secret() {}\n"})
	put(t, ws, map[string]string{
		"main.go":           "package main\n\nfunc main() {\n\tHello()\n}\n",
		"lib/hello.go":      "package lib\n\n// Hello greets.\nfunc Hello() {}\r\n",
		"lib/hello_test.go": "package lib\n\nfunc TestHello() {}\n",
		"docs/notes.md":     "Hello world, こんにちは\n",
		".git/config":       "func Hidden() {}\n",
		"bin.dat":           "func Binary\x00()\n",
		"big.txt":           strings.Repeat("func Big() {}\n", maxSearchFileBytes/14+1),
		"long.txt":          "func " + strings.Repeat("長", 400) + "\n",
	})
	os.Symlink(filepath.Join(base, "outside.go"), filepath.Join(ws, "lib", "out.go"))
	b := newBox(t, Options{Root: ws, AutoExec: true})
	cases := []struct {
		args  map[string]any
		want  string
		isErr bool
	}{
		{map[string]any{"pattern": `func \w+\(`, "glob": "*.go"},
			"lib/hello.go:4:func Hello() {}\nlib/hello_test.go:3:func TestHello() {}\nmain.go:3:func main() {", false},
		{map[string]any{"pattern": `Hello`, "path": "lib", "glob": "*_test.go"}, "lib/hello_test.go:3:func TestHello() {}", false},
		{map[string]any{"pattern": `Hello`, "glob": "lib/*.go"}, "lib/hello.go:3:// Hello greets.\nlib/hello.go:4:func Hello() {}\nlib/hello_test.go:3:func TestHello() {}", false},
		{map[string]any{"pattern": `(?i)^hello`}, "docs/notes.md:1:Hello world, こんにちは\n[skipped 1 binary file and 1 file over 1 MiB]", false},
		{map[string]any{"pattern": `こんにちは$`, "path": "docs/notes.md"}, "docs/notes.md:1:Hello world, こんにちは", false},
		{map[string]any{"pattern": `Hello`, "max_results": 2},
			"docs/notes.md:1:Hello world, こんにちは\nlib/hello.go:3:// Hello greets.\n[stopped at 2 matches; narrow the pattern, path or glob, or raise max_results]\n[skipped 1 binary file and 1 file over 1 MiB]", false},
		{map[string]any{"pattern": `Secret|Hidden|Binary|Big`},
			"no matches for \"Secret|Hidden|Binary|Big\" in . (5 files searched)\n[skipped 1 binary file and 1 file over 1 MiB]", false},
		{map[string]any{"pattern": `nothing`, "path": "lib"}, "no matches for \"nothing\" in lib (2 files searched)", false},
		{map[string]any{"pattern": `(?<=x)y`}, "", true},
		{map[string]any{"pattern": `x`, "glob": "[z"}, "", true},
		{map[string]any{"pattern": ""}, "error: search_files needs a pattern", true},
		{map[string]any{"pattern": "x", "path": "nope"}, "error: nope does not exist", true},
	}
	for _, c := range cases {
		got, isErr := run(t, b, "search_files", c.args)
		if isErr != c.isErr || (c.want != "" && got != c.want) {
			t.Errorf("%v:\n got %v %q\nwant %v %q", c.args, isErr, got, c.isErr, c.want)
		}
	}
	got, _ := run(t, b, "search_files", map[string]any{"pattern": "^func 長", "path": "long.txt"})
	if !strings.HasPrefix(got, "long.txt:1:func 長") || !strings.HasSuffix(got, "長…") || len(got) > 320 {
		t.Errorf("long line: %q", got)
	}
}
