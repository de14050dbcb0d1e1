package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// Limits of search_files.
const (
	defaultMaxResults = 100
	// maxSearchFileBytes: bigger files are skipped (generated or data).
	maxSearchFileBytes = 1 << 20
	// maxMatchLineBytes: a matching line is shown up to this many bytes.
	maxMatchLineBytes = 300
)

type searchArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	MaxResults *int   `json:"max_results"`
}

// searchRun is the state of one search_files call.
type searchRun struct {
	re        *regexp.Regexp
	glob      string
	base      string // the searched directory, an fs.FS path
	max       int
	lines     []string
	files     int // files searched
	binary    int // skipped: NUL byte in the first sniffBytes
	big       int // skipped: over maxSearchFileBytes
	truncated bool
}

func (b *Box) searchFiles(ctx context.Context, raw []byte) (string, error) {
	var a searchArgs
	if err := decode("search_files", raw, &a); err != nil {
		return "", err
	}
	if a.Pattern == "" {
		return "", errors.New("search_files needs a pattern")
	}
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		return "", fmt.Errorf("bad pattern (RE2 syntax: no lookaround or backreferences): %v", err)
	}
	if _, err := path.Match(a.Glob, ""); err != nil {
		return "", fmt.Errorf("bad glob %q: %v", a.Glob, err)
	}
	s := &searchRun{re: re, glob: a.Glob, max: defaultMaxResults}
	if a.MaxResults != nil {
		if s.max = *a.MaxResults; s.max < 1 {
			return "", fmt.Errorf("max_results %d: must be at least 1", s.max)
		}
	}
	t, err := b.resolve(a.Path)
	if err != nil {
		return "", err
	}
	fsys := b.fsRoot.FS()
	fi, err := fs.Stat(fsys, t.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist", t.rel)
	}
	if err != nil {
		return "", err
	}
	if fi.Mode().IsRegular() {
		s.base = path.Dir(t.rel)
		s.file(fsys, t.rel, fi.Size())
	} else {
		s.base = t.rel
		err = fs.WalkDir(fsys, t.rel, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable directory: skip it
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if e.IsDir() {
				if e.Name() == ".git" {
					return fs.SkipDir
				}
				return nil
			}
			if !e.Type().IsRegular() { // symlinks are not followed
				return nil
			}
			info, err := e.Info()
			if err != nil {
				return nil
			}
			if s.file(fsys, p, info.Size()) {
				return errEnough
			}
			return nil
		})
		if err != nil && err != errEnough {
			return "", err
		}
	}
	return s.report(a.Pattern, t.rel), nil
}

// file searches the file at p if the glob admits it; it reports whether
// the result limit is reached.
func (s *searchRun) file(fsys fs.FS, p string, size int64) bool {
	if s.glob != "" {
		name := path.Base(p)
		if strings.Contains(s.glob, "/") {
			name = relTo(s.base, p)
		}
		if ok, _ := path.Match(s.glob, name); !ok {
			return false
		}
	}
	if size > maxSearchFileBytes {
		s.big++
		return false
	}
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return false
	}
	if bytes.IndexByte(data[:min(len(data), sniffBytes)], 0) >= 0 {
		s.binary++
		return false
	}
	s.files++
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !s.re.Match(line) {
			continue
		}
		if len(s.lines) == s.max {
			s.truncated = true
			return true
		}
		text := string(bytes.TrimSuffix(line, []byte("\r")))
		if len(text) > maxMatchLineBytes {
			text = text[:floorBoundary(text, maxMatchLineBytes)] + "…"
		}
		s.lines = append(s.lines, fmt.Sprintf("%s:%d:%s", p, n, text))
	}
	return false
}

// report formats the matches and what was skipped.
func (s *searchRun) report(pattern, where string) string {
	var b strings.Builder
	if len(s.lines) == 0 {
		fmt.Fprintf(&b, "no matches for %q in %s (%d files searched)", pattern, where, s.files)
	} else {
		b.WriteString(strings.Join(s.lines, "\n"))
	}
	if s.truncated {
		fmt.Fprintf(&b, "\n[stopped at %d matches; narrow the pattern, path or glob, or raise max_results]", s.max)
	}
	var skipped []string
	if s.binary > 0 {
		skipped = append(skipped, fmt.Sprintf("%d binary %s", s.binary, plural(s.binary, "file", "files")))
	}
	if s.big > 0 {
		skipped = append(skipped, fmt.Sprintf("%d %s over 1 MiB", s.big, plural(s.big, "file", "files")))
	}
	if skipped != nil {
		fmt.Fprintf(&b, "\n[skipped %s]", strings.Join(skipped, " and "))
	}
	return b.String()
}
