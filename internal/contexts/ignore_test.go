package contexts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// readPatterns reads the same patterns as go-git's ReadPatterns over a
// billy file system, so every path matches alike: nested .gitignore
// files, a folder excluded by its parent's (never read), .git/info/exclude
// and a negation.
func TestReadPatternsAsGoGitReadsThem(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".gitignore":                   "*.log\nbuild/\n# a comment\n\n!keep.log\n",
		".git/info/exclude":            "secret.txt\n",
		"src/.gitignore":               "*.tmp\n/generated\n",
		"src/deep/.gitignore":          "!important.tmp\n",
		"build/.gitignore":             "!*.log\n",
		"src/generated/.gitignore":     "*.go\n",
		"src/deep/x/.git/info/exclude": "x.go\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range [][]string{nil, {"src"}} {
		got, err := readPatterns(root, path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := gitignore.ReadPatterns(osfs.New(root), path)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("under %v: %d patterns, go-git reads %d", path, len(got), len(want))
		}
		mg, mw := gitignore.NewMatcher(got), gitignore.NewMatcher(want)
		for _, p := range [][]string{
			{"a.log"}, {"keep.log"}, {"secret.txt"}, {"build"}, {"build", "a.log"},
			{"src", "a.tmp"}, {"src", "generated"}, {"src", "generated", "a.go"},
			{"src", "deep", "important.tmp"}, {"src", "deep", "other.tmp"},
			{"src", "deep", "x", "x.go"}, {"src", "main.go"},
		} {
			for _, dir := range []bool{false, true} {
				if g, w := mg.Match(p, dir), mw.Match(p, dir); g != w {
					t.Errorf("under %v: %v (folder %v) ignored %v, go-git says %v", path, p, dir, g, w)
				}
			}
		}
	}
	if _, err := readPatterns(filepath.Join(root, "missing"), nil); err == nil {
		t.Error("a folder that cannot be listed gave no error")
	}
}
