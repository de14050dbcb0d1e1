package shadow

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/chatcli/chatcli/internal/i18n"
)

// apply carries out the changes of p in three passes (removals deepest
// first, then folders shallowest first, then files), updating st and rep.
func (r *Repo) apply(ctx context.Context, p Plan, st *state, overwrite func(string) bool, rep *Report) []error {
	var errs []error
	var todo []Change
	for _, c := range p.Changes {
		if c.HandEdited && (overwrite == nil || !overwrite(c.Path)) {
			rep.Skipped = append(rep.Skipped, Skip{Path: c.Path, Why: "changed by hand since the tool wrote it; kept"})
			continue
		}
		todo = append(todo, c)
	}
	blobs, err := r.targetBlobs(todo)
	if err != nil {
		return []error{err}
	}
	done, skip := map[string]bool{}, map[string]bool{}
	// Pass 1: remove what must go, deepest first, so folders empty out.
	sort.Slice(todo, func(i, j int) bool { return todo[i].Path > todo[j].Path })
	for _, c := range todo {
		if ctx.Err() != nil {
			return append(errs, ctx.Err())
		}
		abs := r.abs(c.Path)
		fi, err := os.Lstat(abs)
		switch {
		case err != nil: // already gone
		case fi.IsDir() && c.target.Kind != kindDir:
			if err := os.Remove(abs); err != nil {
				skip[c.Path] = true
				if !isNotEmpty(err) {
					errs = append(errs, i18n.Errorf("shadow: %w", err))
					continue
				}
				rep.Skipped = append(rep.Skipped, Skip{Path: c.Path, Why: "folder not empty; kept"})
			}
		case !fi.IsDir() && (c.target.Kind == kindGone || c.target.Kind == kindDir):
			if err := os.Remove(abs); err != nil {
				skip[c.Path] = true
				errs = append(errs, i18n.Errorf("shadow: %w", err))
			}
		}
		if c.target.Kind == kindGone && !skip[c.Path] {
			done[c.Path] = true
		}
	}
	// Pass 2 and 3: folders, then files, shallowest first.
	sort.Slice(todo, func(i, j int) bool { return todo[i].Path < todo[j].Path })
	for _, kinds := range [][]string{{kindDir}, {kindFile, kindLink}} {
		for _, c := range todo {
			if skip[c.Path] || c.target.Kind != kinds[0] && (len(kinds) == 1 || c.target.Kind != kinds[1]) {
				continue
			}
			if ctx.Err() != nil {
				return append(errs, ctx.Err())
			}
			if err := r.put(c, blobs[c.target.Blob]); err != nil {
				errs = append(errs, err)
				continue
			}
			done[c.Path] = true
		}
	}
	for _, c := range todo {
		if done[c.Path] {
			st.Paths[c.Path].Now = c.target
			rep.Done = append(rep.Done, c)
		}
	}
	return errs
}

// targetBlobs reads the contents the changes write (one git run).
func (r *Repo) targetBlobs(todo []Change) (map[string][]byte, error) {
	var ids []string
	for _, c := range todo {
		if c.target.Blob != "" {
			ids = append(ids, c.target.Blob)
		}
	}
	blobs, err := r.store.readBlobs(ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := blobs[id]; !ok {
			return nil, i18n.Errorf("shadow: object %s missing from %s", id, r.dir)
		}
	}
	return blobs, nil
}

// put makes the path of c what its target says: a folder, a file with its
// content and permissions (written to a temporary file, synced, renamed),
// or a symbolic link.
func (r *Repo) put(c Change, data []byte) error {
	abs := r.abs(c.Path)
	switch c.target.Kind {
	case kindDir:
		if err := os.MkdirAll(abs, c.target.Perm|0o700); err != nil {
			return i18n.Errorf("shadow: %w", err)
		}
		return nil
	case kindLink:
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return i18n.Errorf("shadow: %w", err)
		}
		os.Remove(abs)
		if err := os.Symlink(string(data), abs); err != nil {
			return i18n.Errorf("shadow: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	return writeFile(abs, data, c.target.Perm)
}

// writeFile replaces path with data and permissions perm durably.
func writeFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return i18n.Errorf("shadow: restore %s: %w", path, err)
	}
	_, err = f.Write(data)
	err = errors.Join(err, f.Chmod(perm), f.Sync(), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return i18n.Errorf("shadow: restore %s: %w", path, err)
	}
	return nil
}

func isNotEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)
}
