package bootstrap

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Names are the bootstrap files, in the order they are sent.
var Names = []string{"AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md", "RULES.md"}

// MaxFileBytes caps what is sent of one bootstrap file (64 KiB); the rest
// is left out and the cut said.
const MaxFileBytes = 64 << 10

// File is one bootstrap file found.
type File struct {
	Name string // one of Names
	Path string // where it was read
	// SizeBytes is the file's size on disk; Content holds at most
	// MaxFileBytes of it, and Truncated says when it holds less.
	SizeBytes int64
	Content   string
	Truncated bool
}

// Loader finds and reads the bootstrap files of a working folder and a
// home folder, keeping each file's text until it changes. It is safe for
// concurrent use.
type Loader struct {
	dirs []string
	mu   sync.Mutex
	seen map[string]cached
}

type cached struct {
	size int64
	mod  time.Time
	file File
}

// NewLoader returns a loader looking in workDir first, then in home
// (CHATCLI_HOME); either may be "" to skip it.
func NewLoader(workDir, home string) *Loader {
	var dirs []string
	for _, d := range []string{workDir, home} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return &Loader{dirs: dirs, seen: map[string]cached{}}
}

// Load returns the bootstrap files found, in the order of Names, and one
// warning per file that exists but could not be read (naming its path).
func (l *Loader) Load() (files []File, warnings []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, name := range Names {
		for _, dir := range l.dirs {
			path := filepath.Join(dir, name)
			f, found, err := l.read(name, path)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("bootstrap file %s skipped: %v", path, err))
			}
			if found {
				if err == nil {
					files = append(files, f)
				}
				break // the first folder holding the name wins
			}
		}
	}
	return files, warnings
}

// read reads path unless it is unchanged since last time. found is false
// when nothing is there.
func (l *Loader) read(name, path string) (File, bool, error) {
	fi, err := os.Stat(path)
	if os.IsNotExist(err) {
		delete(l.seen, path)
		return File{}, false, nil
	}
	if err != nil {
		return File{}, true, err
	}
	if !fi.Mode().IsRegular() {
		return File{}, true, fmt.Errorf("not a regular file")
	}
	if c, ok := l.seen[path]; ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.file, true, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return File{}, true, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes+utf8.UTFMax))
	if err != nil {
		return File{}, true, err
	}
	f := File{Name: name, Path: path, SizeBytes: fi.Size()}
	f.Content, f.Truncated = Cut(strings.ToValidUTF8(string(b), "\uFFFD"), MaxFileBytes)
	f.Truncated = f.Truncated || fi.Size() > int64(len(b))
	l.seen[path] = cached{size: fi.Size(), mod: fi.ModTime(), file: f}
	return f, true, nil
}

// Cut returns s cut to at most maxBytes bytes on a character boundary,
// and whether anything was cut.
func Cut(s string, maxBytes int) (string, bool) {
	if len(s) <= maxBytes {
		return s, false
	}
	i := maxBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i], true
}

// Text is the system content the files make: a heading, then each file
// under its name, with a line saying where one was cut. It is "" when
// files is empty.
func Text(files []File) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Bootstrap files (instructions kept beside the work; follow them):\n")
	for _, f := range files {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", f.Name, strings.TrimRight(f.Content, "\n"))
		if f.Truncated {
			fmt.Fprintf(&b, "\n[%s was cut to its first %d bytes of %d]\n", f.Name, len(f.Content), f.SizeBytes)
		}
	}
	return b.String()
}
