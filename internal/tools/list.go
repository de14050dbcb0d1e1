package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

const defaultMaxEntries = 500

// errEnough stops a walk that has collected what it needs.
var errEnough = errors.New("enough")

type listArgs struct {
	Path       string `json:"path"`
	Recursive  bool   `json:"recursive"`
	MaxEntries *int   `json:"max_entries"`
}

func (b *Box) listDir(ctx context.Context, raw []byte) (string, error) {
	var a listArgs
	if err := decode("list_dir", raw, &a); err != nil {
		return "", err
	}
	max := defaultMaxEntries
	if a.MaxEntries != nil {
		if max = *a.MaxEntries; max < 1 {
			return "", fmt.Errorf("max_entries %d: must be at least 1", max)
		}
	}
	t, err := b.resolve(a.Path)
	if err != nil {
		return "", err
	}
	fi, err := b.fsRoot.Stat(t.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist", t.rel)
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory; use read_file", t.rel)
	}
	fsys := b.fsRoot.FS()
	var lines []string
	more, stopped := 0, false
	if !a.Recursive {
		entries, err := fs.ReadDir(fsys, t.rel)
		if err != nil {
			return "", err
		}
		for i, e := range entries {
			if i == max {
				more = len(entries) - max
				break
			}
			lines = append(lines, entryLine(fsys, path.Join(t.rel, e.Name()), e.Name(), e))
		}
	} else {
		err = fs.WalkDir(fsys, t.rel, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if p == t.rel {
					return err
				}
				lines = append(lines, fmt.Sprintf("%s (unreadable: %v)", relTo(t.rel, p), err))
				return nil
			}
			if p == t.rel {
				return nil
			}
			if e.IsDir() && e.Name() == ".git" {
				return fs.SkipDir
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if len(lines) == max {
				stopped = true
				return errEnough
			}
			lines = append(lines, entryLine(fsys, p, relTo(t.rel, p), e))
			return nil
		})
		if err != nil && err != errEnough {
			return "", err
		}
	}
	if len(lines) == 0 {
		return fmt.Sprintf("[%s is empty]", t.rel), nil
	}
	out := strings.Join(lines, "\n")
	switch {
	case more > 0:
		out += fmt.Sprintf("\n[%d more entries not shown; raise max_entries to see them]", more)
	case stopped:
		out += fmt.Sprintf("\n[listing stopped at %d entries; there are more: list a subdirectory or raise max_entries]", max)
	}
	return out, nil
}

// entryLine formats entry e, at p in fsys, shown as name: "name/" for a
// directory, "name -> target" for a symlink (not followed), "name"
// otherwise.
func entryLine(fsys fs.FS, p, name string, e fs.DirEntry) string {
	switch {
	case e.IsDir():
		return name + "/"
	case e.Type()&fs.ModeSymlink != 0:
		if dest, err := fs.ReadLink(fsys, p); err == nil {
			return name + " -> " + dest
		}
		return name + " -> ?"
	}
	return name
}

// relTo returns p relative to dir, both fs.FS paths, dir an ancestor of p.
func relTo(dir, p string) string {
	if dir == "." {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}
