package shadow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// stateName is what the state file is sealed for, after the repository's
// "shadow:<folder>:" (doc.go).
const stateName = "state"

// readState reads the state file, opening it when sealed, and returns the
// state and its manifest bytes; a missing file is an empty state. A
// sealed file without a key is ErrSealed; with the wrong key the error
// wraps seal.ErrWrongKey. Both name the file.
func (r *Repo) readState() (*state, []byte, error) {
	path := r.statePath()
	data, err := storefile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return newState(), nil, nil
	}
	if err != nil {
		return nil, nil, i18n.Errorf("shadow: read %s: %w", path, err)
	}
	if seal.IsSealed(data) {
		s, ok := r.store.(*sealedStore)
		if !ok {
			return nil, nil, i18n.Errorf("%w (%s)", ErrSealed, path)
		}
		if data, err = seal.Open(s.key, s.envelopeName(stateName), data); err != nil {
			return nil, nil, i18n.Errorf("shadow: open %s: %w", path, err)
		}
	}
	st, err := decodeState(data, path)
	return st, data, err
}

// writeState replaces the state file with manifest, sealed when the
// repository has a key.
func (r *Repo) writeState(manifest []byte) error {
	if s, ok := r.store.(*sealedStore); ok {
		return s.write(r.statePath(), stateName, manifest)
	}
	if err := atomicfile.WriteFile(r.statePath(), manifest); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	return nil
}

// prepare makes the store's folders. Without a key it refuses a
// repository that was sealed (ErrSealed); with one it first seals a
// repository written in git form (sealPlaintext).
func (r *Repo) prepare() error {
	if _, ok := r.store.(*sealedStore); ok {
		if err := r.store.create(); err != nil {
			return err
		}
		return r.sealPlaintext()
	}
	if _, err := os.Lstat(filepath.Join(r.dir, "manifests")); err == nil {
		return i18n.Errorf("%w (%s)", ErrSealed, r.dir)
	}
	return r.store.create()
}
