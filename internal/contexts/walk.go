package contexts

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/dustin/go-humanize"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// MaxBytes caps the text one context holds (4 MiB).
const MaxBytes = 4 << 20

// binarySniffBytes is how much of a file is looked at for a NUL byte.
const binarySniffBytes = 8 << 10

// collect walks paths into c: each file's text, chunked.
func collect(c *Context, paths []string) error {
	total := 0
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		c.Sources = append(c.Sources, abs)
		switch {
		case fi.Mode().IsRegular():
			if err := c.addFile(abs, filepath.Base(abs), &total); err != nil {
				return err
			}
		case fi.IsDir():
			if err := c.addDir(abs, &total); err != nil {
				return err
			}
		default:
			return i18n.Errorf("%s: not a regular file or folder", p)
		}
	}
	if total > MaxBytes {
		return i18n.Errorf("%w: the files come to %s, over the %s a context holds; name fewer files or folders, or add them to .gitignore",
			ErrTooLarge, humanize.IBytes(uint64(total)), humanize.IBytes(MaxBytes))
	}
	if len(c.Files) == 0 {
		return i18n.Errorf("no text file found in %s (ignored %d, binary %d)", strings.Join(paths, " "), c.Skipped.Ignored, c.Skipped.Binary)
	}
	return nil
}

// addDir adds the files under dir that its repository's .gitignore files
// do not exclude.
func (c *Context) addDir(dir string, total *int) error {
	match, err := ignoreMatcher(dir)
	if err != nil {
		return err
	}
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == "." {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if match(parts, d.IsDir()) {
			c.Skipped.Ignored++
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() { // folders are walked; links and devices never read
			return nil
		}
		return c.addFile(path, filepath.ToSlash(rel), total)
	})
}

// ignoreMatcher returns whether a path under dir (its components from
// dir) is excluded by the .gitignore files of dir's repository: those of
// the folders from the repository's root down to dir, and those inside
// dir. Outside a repository only dir's own count.
func ignoreMatcher(dir string) (func([]string, bool) bool, error) {
	root := dir
	for r := dir; ; r = filepath.Dir(r) {
		if _, err := os.Stat(filepath.Join(r, ".git")); err == nil {
			root = r
			break
		}
		if filepath.Dir(r) == r {
			break
		}
	}
	rel, _ := filepath.Rel(root, dir)
	var prefix []string
	if rel != "." {
		prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	var ps []gitignore.Pattern
	for i := range prefix { // the folders above dir, outermost first
		ps = append(ps, readIgnore(filepath.Join(append([]string{root}, prefix[:i]...)...), prefix[:i])...)
	}
	inside, err := readPatterns(root, prefix)
	if err != nil {
		return nil, i18n.Errorf("reading .gitignore files under %s: %w", dir, err)
	}
	m := gitignore.NewMatcher(append(ps, inside...))
	return func(parts []string, isDir bool) bool {
		return m.Match(append(append([]string(nil), prefix...), parts...), isDir)
	}, nil
}

// addFile adds the text of the file at path under the name rel; a binary
// file is counted and skipped. Reading stops once the total passes
// MaxBytes (the error is given by collect).
func (c *Context) addFile(path, rel string, total *int) error {
	if *total > MaxBytes {
		*total += fileSize(path)
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.IndexByte(data[:min(len(data), binarySniffBytes)], 0) >= 0 {
		c.Skipped.Binary++
		return nil
	}
	*total += len(data)
	chunks := chunk(rel, strings.ToValidUTF8(string(data), "\uFFFD"))
	c.Files = append(c.Files, FileEntry{Path: rel, Bytes: len(data), Chunks: len(chunks)})
	c.Chunks = append(c.Chunks, chunks...)
	return nil
}

func fileSize(path string) int {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return int(fi.Size())
}
