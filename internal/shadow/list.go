package shadow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Info describes one shadow repository under a home folder.
type Info struct {
	// Dir is the repository's folder, Workspace the path it records ("" when
	// Err is set).
	Dir       string
	Workspace string
	Files     int
	SizeBytes int64
	// ModTime is the latest modification time of its state (or, before any
	// state, of the folder).
	ModTime time.Time
	// Gone is set when the workspace does not exist any more.
	Gone bool
	// Err says why the recorded workspace cannot be read; such a repository
	// is never removed.
	Err error
}

// List describes every repository under home's checkpoints folder, in
// folder name order. A missing folder has none; one that is not a folder
// itself (a link, a FIFO) is an error wrapping storefile.ErrNotRegular,
// never read through.
func List(home string) ([]Info, error) {
	root := Dir(home)
	err := storefile.Dir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, i18n.Errorf("shadow: %w", err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, i18n.Errorf("shadow: read %s: %w", root, err)
	}
	var out []Info
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, describe(filepath.Join(root, e.Name())))
	}
	return out, nil
}

// describe measures the repository in dir and checks its workspace.
func describe(dir string) Info {
	in := Info{Dir: dir}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				in.Files++
				in.SizeBytes += fi.Size()
			}
		}
		return nil
	})
	if fi, err := storefile.Lstat(filepath.Join(dir, "state")); err == nil {
		in.ModTime = fi.ModTime()
	} else if fi, err := os.Lstat(dir); err == nil {
		in.ModTime = fi.ModTime()
	}
	in.Workspace, in.Gone, in.Err = workspaceOf(dir)
	return in
}

// workspaceOf reads the workspace a repository records and whether it is
// gone. Only "no such file" counts as gone: a workspace that cannot be
// checked (permissions, I/O) is not.
func workspaceOf(dir string) (ws string, gone bool, err error) {
	data, err := storefile.ReadFile(filepath.Join(dir, "workspace"))
	if err != nil {
		return "", false, i18n.Errorf("shadow: %w", err)
	}
	ws = strings.TrimSuffix(string(data), "\n")
	if !filepath.IsAbs(ws) || strings.Contains(ws, "\n") {
		return "", false, i18n.Errorf("shadow: %s: not an absolute path", filepath.Join(dir, "workspace"))
	}
	_, err = os.Stat(ws)
	return ws, errors.Is(err, fs.ErrNotExist), nil
}

// RemoveIfGone deletes the repository in dir when its recorded workspace
// still does not exist, holding the repository's lock (without waiting:
// a repository in use is left). The folder is first renamed to a hidden
// name, so no process sees it half deleted. It returns why it left the
// repository alone (a catalog text, said in the user's language by
// chatcli storage prune), or a zero Text when it removed it.
func RemoveIfGone(dir string) (i18n.Text, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return i18n.Textf("already gone"), nil
	}
	lock, err := storefile.NewLock(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR)
	if err != nil {
		return i18n.Text{}, i18n.Errorf("shadow: %w", err)
	}
	ok, err := lock.TryLock()
	if err != nil {
		return i18n.Text{}, i18n.Errorf("shadow: lock %s: %w", lock.Path(), err)
	}
	if !ok {
		return i18n.Textf("in use by a running chatcli"), nil
	}
	defer lock.Unlock()
	_, gone, err := workspaceOf(dir)
	switch {
	case err != nil:
		return i18n.Textf("workspace unknown: %v", err), nil
	case !gone:
		return i18n.Textf("workspace exists again"), nil
	}
	doomed := filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".removing")
	os.RemoveAll(doomed)
	if err := os.Rename(dir, doomed); err != nil {
		return i18n.Text{}, i18n.Errorf("shadow: remove %s: %w", dir, err)
	}
	if err := os.RemoveAll(doomed); err != nil {
		return i18n.Text{}, i18n.Errorf("shadow: remove %s: %w", dir, err)
	}
	return i18n.Text{}, nil
}

// Sealed reports whether the repository in dir (an Info.Dir of List) is in
// sealed form: used without the key, it refuses every change (ErrSealed).
func Sealed(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "manifests"))
	return err == nil
}
