package shadow

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// ErrSealed is returned when a repository's checkpoints are encrypted and
// no CHATCLI_ENCRYPTION_KEY is set: nothing of it can be read or added to.
var ErrSealed = i18n.Errorf("shadow: the file checkpoints of this folder are encrypted: set CHATCLI_ENCRYPTION_KEY")

// MAC labels of the names of sealed objects and checkpoints (doc.go).
const (
	objectLabel     = "shadow object"
	checkpointLabel = "shadow checkpoint"
	stateLabel      = "shadow state"
)

// sealedStore is the object store of a repository when an encryption key
// is set: each content is one sealed file, each checkpoint's manifest
// another, and git is not used (see doc.go, "Encryption").
type sealedStore struct {
	dir  string // the repository folder
	key  seal.Key
	repo string // the folder's name, bound into every envelope's name
}

var _ objectStore = (*sealedStore)(nil)

func (s *sealedStore) create() error {
	for _, d := range []string{"objects", "manifests"} {
		if err := realDir(filepath.Join(s.dir, d)); err != nil {
			return err
		}
	}
	return nil
}

// envelopeName is the name a sealed file of this repository is sealed
// for: "shadow:<repository folder>:<what>".
func (s *sealedStore) envelopeName(what string) string { return "shadow:" + s.repo + ":" + what }

// objectPath is where the content of blob id is kept: objects/ and the
// first 40 hex digits of MAC(key, "shadow object", id).
func (s *sealedStore) objectPath(id string) (string, error) {
	m, err := seal.MAC(s.key, objectLabel, []byte(id))
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, "objects", hex.EncodeToString(m)[:40]), nil
}

func (s *sealedStore) hashFiles(paths []string) ([]string, error) {
	ids := make([]string, 0, len(paths))
	for _, p := range paths {
		data, err := storefile.ReadFile(p)
		if err != nil {
			return nil, i18n.Errorf("shadow: %w", err)
		}
		id, err := s.hashData(data)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// hashData seals data into its object file unless one already holds it
// (equal contents are stored once).
func (s *sealedStore) hashData(data []byte) (string, error) {
	id := blobID(data)
	p, err := s.objectPath(id)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(p); err == nil {
		return id, nil
	}
	return id, s.write(p, "object:"+id, data)
}

// write seals data for what and replaces path with it durably (mode 0600).
func (s *sealedStore) write(path, what string, data []byte) error {
	env, err := seal.Seal(s.key, s.envelopeName(what), data)
	if err != nil {
		return i18n.Errorf("shadow: seal %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, env); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	return nil
}

// read opens the sealed file at path made for what; false when there is
// no such file.
func (s *sealedStore) read(path, what string) ([]byte, bool, error) {
	env, err := storefile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, i18n.Errorf("shadow: read %s: %w", path, err)
	}
	data, err := seal.Open(s.key, s.envelopeName(what), env)
	if err != nil {
		return nil, false, i18n.Errorf("shadow: open %s: %w", path, err)
	}
	return data, true, nil
}

func (s *sealedStore) readBlobs(ids []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, id := range ids {
		p, err := s.objectPath(id)
		if err != nil {
			return nil, err
		}
		data, ok, err := s.read(p, "object:"+id)
		if err != nil {
			return nil, err
		}
		if ok {
			out[id] = data
		}
	}
	return out, nil
}

// commit names the checkpoint by the first 40 hex digits of MAC(key,
// "shadow checkpoint", manifest): an equal state gets the same id.
func (s *sealedStore) commit(_ *state, manifest []byte, _ string) (string, error) {
	m, err := seal.MAC(s.key, checkpointLabel, manifest)
	if err != nil {
		return "", err
	}
	id := hex.EncodeToString(m)[:40]
	return id, s.putManifest(id, manifest)
}

// putManifest stores manifest as checkpoint id.
func (s *sealedStore) putManifest(id string, manifest []byte) error {
	return s.write(filepath.Join(s.dir, "manifests", id), "manifest:"+id, manifest)
}

func (s *sealedStore) manifest(id string) ([]byte, bool, error) {
	return s.read(filepath.Join(s.dir, "manifests", id), "manifest:"+id)
}
