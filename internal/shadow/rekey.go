package shadow

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
)

// Rekey re-seals the repository in dir (an Info.Dir of List) under nw,
// opening what it holds with nw or else old (the zero Key when there is
// none): the state and every checkpoint manifest are sealed again in
// place, and every content is written under its name for nw (objects/
// names are keyed) before the names for old are removed. A repository in
// git form is sealed under nw as on its first use with a key. It holds the
// repository's lock and reports whether anything changed. Each file is
// replaced atomically, so an interrupted run leaves every file opening with
// one of the two keys, and a second run finishes. Errors name the file;
// one that opens with neither key wraps seal.ErrWrongKey, and nothing more
// is changed after it.
func Rekey(dir string, old, nw seal.Key) (changed bool, err error) {
	unlock, err := lockDir(context.Background(), dir)
	if err != nil {
		return false, err
	}
	defer unlock()
	fresh := &sealedStore{dir: dir, key: nw, repo: filepath.Base(dir)}
	stale := &sealedStore{dir: dir, key: old, repo: filepath.Base(dir)}
	if ok, err := hasGit(dir); err != nil {
		return false, err
	} else if ok {
		ws, _, err := workspaceOf(dir)
		if err != nil {
			return false, err
		}
		g, _ := exec.LookPath("git")
		r := &Repo{workspace: ws, resolved: ws, dir: dir, gitPath: g, key: nw, store: fresh, now: time.Now}
		return true, i18n.Join(fresh.create(), r.sealPlaintext())
	}
	k := rekeying{fresh: fresh, stale: stale}
	state, err := k.reseal(filepath.Join(dir, "state"), stateName)
	if err != nil {
		return k.changed, err
	}
	ids := blobsOf(state)
	ents, err := os.ReadDir(filepath.Join(dir, "manifests"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, i18n.Errorf("shadow: %w", err)
	}
	for _, e := range ents {
		m, err := k.reseal(filepath.Join(dir, "manifests", e.Name()), "manifest:"+e.Name())
		if err != nil {
			return k.changed, err
		}
		ids = append(ids, blobsOf(m)...)
	}
	var doomed []string
	for _, id := range ids {
		p, err := k.moveObject(id)
		if err != nil {
			return k.changed, err
		}
		if p != "" {
			doomed = append(doomed, p)
		}
	}
	for _, p := range doomed {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return k.changed, i18n.Errorf("shadow: %w", err)
		}
	}
	return k.changed, nil
}

// rekeying re-seals files from the stale key to the fresh one.
type rekeying struct {
	fresh, stale *sealedStore
	changed      bool
}

// open opens the sealed file at path made for what with the fresh key or
// else the stale one; ok is false when there is no file.
func (k *rekeying) open(path, what string) (data []byte, underFresh, ok bool, err error) {
	data, ok, err = k.fresh.read(path, what)
	if err == nil || !errors.Is(err, seal.ErrWrongKey) || k.stale.key.IsZero() {
		return data, true, ok, err
	}
	data, ok, err = k.stale.read(path, what)
	return data, false, ok, err
}

// reseal seals the file at path under the fresh key when it is not yet
// and returns its plaintext (nil when there is no file).
func (k *rekeying) reseal(path, what string) ([]byte, error) {
	data, underFresh, ok, err := k.open(path, what)
	if err != nil || !ok || underFresh {
		return data, err
	}
	k.changed = true
	return data, k.fresh.write(path, what, data)
}

// moveObject writes the content of blob id under its fresh name when it
// is not there yet, and returns its stale name to remove ("" for none):
// also when the fresh name was written by an earlier run that stopped
// before removing the stale one.
func (k *rekeying) moveObject(id string) (string, error) {
	np, err := k.fresh.objectPath(id)
	if err != nil {
		return "", err
	}
	if _, ok, err := k.fresh.read(np, "object:"+id); err != nil || ok {
		if err != nil || k.stale.key.IsZero() {
			return "", err
		}
		op, err := k.stale.objectPath(id)
		if err != nil || op == np {
			return "", err
		}
		if _, err := os.Lstat(op); err != nil {
			return "", nil
		}
		k.changed = true
		return op, nil
	}
	if k.stale.key.IsZero() {
		return "", i18n.Errorf("shadow: object %s of %s is missing", id, k.fresh.dir)
	}
	op, err := k.stale.objectPath(id)
	if err != nil {
		return "", err
	}
	data, ok, err := k.stale.read(op, "object:"+id)
	if err != nil || !ok {
		return "", i18n.Join(err, i18n.Errorf("shadow: object %s of %s is missing", id, k.fresh.dir))
	}
	k.changed = true
	return op, k.fresh.write(np, "object:"+id, data)
}

// blobsOf returns the blob ids a manifest names (none for nil or a
// manifest that does not parse: the file was sealed again as it is).
func blobsOf(manifest []byte) []string {
	if manifest == nil {
		return nil
	}
	st, err := decodeState(manifest, "")
	if err != nil {
		return nil
	}
	return st.blobs()
}
