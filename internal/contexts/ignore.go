package contexts

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// readPatterns returns the ignore patterns of the folder root/path and of
// every folder below it that its patterns do not exclude, as go-git's
// gitignore.ReadPatterns reads them (each folder's .git/info/exclude,
// then its .gitignore, then its sub-folders', in ascending priority), on
// the operating system's files directly. A folder that cannot be listed
// is an error; a missing ignore file is none.
func readPatterns(root string, path []string) ([]gitignore.Pattern, error) {
	dir := filepath.Join(append([]string{root}, path...)...)
	ps := readIgnoreFile(dir, ".git/info/exclude", path)
	ps = append(ps, readIgnoreFile(dir, ".gitignore", path)...)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == ".git" {
			continue
		}
		sub := append(path[:len(path):len(path)], e.Name())
		if gitignore.NewMatcher(ps).Match(sub, true) {
			continue
		}
		more, err := readPatterns(root, sub)
		if err != nil {
			return nil, err
		}
		ps = append(ps, more...)
	}
	return ps, nil
}

// readIgnore parses dir/.gitignore with domain (none when it is missing).
func readIgnore(dir string, domain []string) []gitignore.Pattern {
	return readIgnoreFile(dir, ".gitignore", domain)
}

// readIgnoreFile parses the ignore file dir/name (slash-separated) with
// domain: one pattern per line that is neither blank nor a comment. A
// file that is missing or cannot be read gives none.
func readIgnoreFile(dir, name string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}
