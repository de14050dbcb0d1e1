package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxSymlinks bounds symlink expansion while resolving one path, as Linux's
// path walk does (40 nested links, ELOOP).
const maxSymlinks = 40

// errOutside is wrapped by every confinement refusal.
var errOutside = errors.New("outside the workspace")

// target is a path the model named, resolved inside the workspace.
type target struct {
	// abs is the absolute path with every symlink resolved (for a path
	// that does not exist yet: its existing prefix resolved, the rest
	// appended).
	abs string
	// rel is abs relative to the workspace root, with forward slashes;
	// "." for the root itself. It is what the os.Root operations take
	// and what messages show.
	rel string
}

// resolve maps p, as the model wrote it, to a target inside the workspace.
// A relative p is taken against the workspace root. It refuses a path that
// leaves the workspace lexically ("../x", "/etc/passwd") or through a
// symlink in any component, including the last one and a dangling link:
// the link is followed to where a write would land.
func (b *Box) resolve(p string) (target, error) {
	if p == "" {
		p = "."
	}
	if strings.ContainsRune(p, 0) {
		return target{}, fmt.Errorf("path %q contains a NUL byte", p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(b.root, abs)
	}
	abs = filepath.Clean(abs)
	real, err := realpath(abs)
	if err != nil {
		return target{}, fmt.Errorf("path %s: %w", p, err)
	}
	rel, ok := within(b.realRoot, real)
	if !ok {
		return target{}, b.outside(p, real)
	}
	return target{abs: real, rel: rel}, nil
}

// outside builds the refusal for p, which resolves to real.
func (b *Box) outside(p, real string) error {
	via := ""
	if real != filepath.Clean(p) && real != filepath.Join(b.root, p) {
		via = " (it resolves to " + real + ")"
	}
	return fmt.Errorf("path %s is %w %s%s; use a path inside it", p, errOutside, b.root, via)
}

// within reports whether p is root or below it, and p relative to root with
// forward slashes.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// realpath resolves every symlink in the absolute, clean path p. Unlike
// filepath.EvalSymlinks it accepts a path whose tail does not exist and
// follows a dangling symlink to its target, so the answer is where a file
// created at p would land.
func realpath(p string) (string, error) {
	vol := filepath.VolumeName(p)
	cur := vol + string(filepath.Separator)
	todo := splitPath(p[len(vol):])
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			// The rest does not exist: nothing more to resolve.
			return filepath.Join(append([]string{next}, todo...)...), nil
		}
		if errors.Is(err, syscall.ENOTDIR) {
			return "", fmt.Errorf("%s is a file, not a directory", cur)
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxSymlinks {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		dest, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(dest) {
			v := filepath.VolumeName(dest)
			cur = v + string(filepath.Separator)
			dest = dest[len(v):]
		}
		todo = append(splitPath(dest), todo...)
	}
	return cur, nil
}

// splitPath splits p into its non-empty components.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) && r < 0x80 })
}
