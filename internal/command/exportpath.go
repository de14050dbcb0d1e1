package command

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// exportTarget splits an export PATH into the folder to write in and the
// file name, "" for the default name: "" is the working directory; "~"
// and "~/…" are in the home folder (as a shell expands them; "~user" is
// not); an existing folder, or a path ending in "/", is that folder. The
// folder need not exist yet.
func exportTarget(path string) (dir, file string, err error) {
	folder := strings.HasSuffix(path, "/")
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", "", i18n.Errorf("export: %s: the home folder is unknown: %w", path, err)
		}
		path = filepath.Join(home, path[1:])
	}
	if path == "" {
		return ".", "", nil
	}
	if folder {
		return filepath.Clean(path), "", nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path, "", nil
	}
	return filepath.Dir(path), filepath.Base(path), nil
}

// writeExport writes data to p durably, replacing a file only when
// replace; an existing p without it is an error wrapping ErrUsage.
func writeExport(p string, data []byte, replace bool) error {
	write := atomicfile.CreateFile
	if replace {
		write = atomicfile.WriteFile
	}
	err := write(p, data)
	if errors.Is(err, fs.ErrExist) && !replace {
		return i18n.Errorf("%w: %s exists; add --yes to replace it", ErrUsage, p)
	}
	return exportError(p, err)
}

// exportError names the file p a failed write was for, and drops the
// temporary file's name an error of atomicfile carries; nil stays nil.
func exportError(p string, err error) error {
	if err == nil || errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	return i18n.Errorf("export: cannot write %s (in the folder %s): %w", p, filepath.Dir(p), causeOf(err))
}

// causeOf is the reason of a file system error without the path it names
// (fs.PathError's Err), or err itself.
func causeOf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
