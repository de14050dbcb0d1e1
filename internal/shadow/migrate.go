package shadow

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// plaintextGit reports whether the repository still holds a git object
// store, written without a key.
func (r *Repo) plaintextGit() bool {
	ok, _ := hasGit(r.dir)
	return ok
}

// hasGit reports whether the repository folder dir holds a git object
// store: a folder git, itself and not a link to one, holding a regular
// file HEAD (neither is followed if a link). A git entry that is not a
// folder is an error wrapping storefile.ErrNotRegular: git is never run
// on, nor a mode changed through, what a link there names.
func hasGit(dir string) (bool, error) {
	g := filepath.Join(dir, "git")
	if err := storefile.Dir(g); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, i18n.Errorf("shadow: %w", err)
	}
	_, err := storefile.Lstat(filepath.Join(g, "HEAD"))
	return err == nil, nil
}

// sealPlaintext turns a repository written without a key (git form) into
// the sealed form when a key is set: every content a checkpoint or the
// state names is sealed into objects/, every checkpoint's manifest into
// manifests/ under its commit id (so the checkpoints sessions hold still
// resolve), the state is sealed, and git/ and index are removed last. An
// interrupted run leaves git/ and is done again, from the start, next
// time. It holds the repository's lock (called from locked).
func (r *Repo) sealPlaintext() error {
	if !r.plaintextGit() {
		return nil
	}
	s := r.store.(*sealedStore)
	if r.gitPath == "" {
		return i18n.Errorf("shadow: %s holds file checkpoints written without a key; sealing them needs git: %w", r.dir, ErrGitMissing)
	}
	g := &gitStore{dir: r.dir, gitPath: r.gitPath}
	ids, err := g.checkpoints()
	if err != nil {
		return err
	}
	var blobs []string
	manifests := map[string][]byte{}
	for _, id := range ids {
		data, ok, err := g.manifest(id)
		if err != nil || !ok {
			return i18n.Join(err, i18n.Errorf("shadow: %s: checkpoint %s has no manifest", r.dir, id))
		}
		st, err := decodeState(data, "checkpoint "+id)
		if err != nil {
			return err
		}
		blobs = append(blobs, st.blobs()...)
		manifests[id] = data
	}
	st, _, err := r.readState()
	if err != nil {
		return err
	}
	blobs = append(blobs, st.blobs()...)
	slices.Sort(blobs)
	contents, err := g.readBlobs(slices.Compact(blobs))
	if err != nil {
		return err
	}
	for id, data := range contents {
		if got, err := s.hashData(data); err != nil || got != id {
			return i18n.Join(err, i18n.Errorf("shadow: %s: object %s reads back as %s", r.dir, id, got))
		}
	}
	for id, data := range manifests {
		if err := s.putManifest(id, data); err != nil {
			return err
		}
	}
	if err := r.writeState(st.encode()); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(r.dir, "git")); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	if err := os.Remove(filepath.Join(r.dir, "index")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return i18n.Errorf("shadow: %w", err)
	}
	return nil
}

// sealBeforeReading seals a repository still in git form before Plan reads
// it with a key (the hooks do it under their lock; Plan has none).
func (r *Repo) sealBeforeReading() error {
	if _, ok := r.store.(*sealedStore); !ok || !r.plaintextGit() {
		return nil
	}
	return r.locked(context.Background(), func(*state) (bool, error) { return false, nil })
}
