package shadow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// DirName is the folder under CHATCLI_HOME that holds the repositories.
const DirName = "checkpoints"

// EmptyID is the checkpoint id of a workspace no tool has changed yet
// (git's empty tree id): restoring to it sets every tracked path back to
// the state it had before any tool touched it.
const EmptyID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// lockTimeout bounds how long a hook waits for another process holding the
// repository (which holds it only while it writes a few objects).
const lockTimeout = 30 * time.Second

// Repo is the shadow repository of one workspace. Its methods are safe for
// concurrent use, and several processes may use one workspace's repository
// at once (they take turns on a flock(2)).
type Repo struct {
	workspace string // absolute, clean
	resolved  string // workspace with symbolic links resolved
	dir       string // the repository folder
	gitPath   string // "" when git is not on PATH (allowed with a key)
	key       seal.Key
	store     objectStore
	mu        sync.Mutex
	now       func() time.Time
	cmdErr    error // a Command that could not be recorded, for the next Checkpoint
}

// Dir is the folder under home that holds every shadow repository.
func Dir(home string) string { return filepath.Join(home, DirName) }

// RepoDir is the folder of workspace's repository under home:
// checkpoints/<first 16 hex digits of SHA-256 of the absolute path>.
func RepoDir(home, workspace string) string {
	sum := sha256.Sum256([]byte(workspace))
	return filepath.Join(Dir(home), hex.EncodeToString(sum[:])[:16])
}

// Open returns the shadow repository of workspace (a folder; made
// absolute) under home (CHATCLI_HOME). With key (CHATCLI_ENCRYPTION_KEY;
// the zero Key for none) everything it keeps is sealed and git is needed
// only to seal a repository written without a key; without one it is a
// git repository (doc.go). Nothing is written until a tool changes a
// file. Errors: ErrGitMissing (no key and no git), or a missing workspace.
func Open(home, workspace string, key seal.Key) (*Repo, error) {
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return nil, i18n.Errorf("shadow: workspace %s: %w", workspace, err)
	}
	if err := checkWorkspace(ws); err != nil {
		return nil, err
	}
	g, err := exec.LookPath("git")
	if err != nil && key.IsZero() {
		return nil, ErrGitMissing
	}
	resolved, err := filepath.EvalSymlinks(ws)
	if err != nil {
		resolved = ws
	}
	r := &Repo{workspace: ws, resolved: resolved, dir: RepoDir(home, ws), gitPath: g, key: key, now: time.Now}
	r.store = &gitStore{dir: r.dir, gitPath: g}
	if !key.IsZero() {
		r.store = &sealedStore{dir: r.dir, key: key, repo: filepath.Base(r.dir)}
	}
	return r, nil
}

// checkWorkspace returns an error naming ws when it is not a folder.
func checkWorkspace(ws string) error {
	fi, err := os.Stat(ws)
	if err != nil {
		return i18n.Errorf("shadow: workspace %s: %w", ws, err)
	}
	if !fi.IsDir() {
		return i18n.Errorf("shadow: workspace %s is not a folder", ws)
	}
	return nil
}

// Workspace returns the workspace's absolute path.
func (r *Repo) Workspace() string { return r.workspace }

// Path returns the repository's folder.
func (r *Repo) Path() string { return r.dir }

// SetClock replaces the clock that dates command lines (tests).
func (r *Repo) SetClock(now func() time.Time) { r.now = now }

// rel returns abs relative to the workspace, slash-separated, or an error
// when abs is outside it, is the workspace itself or holds a newline (the
// manifest and git's --stdin-paths are line-based).
func (r *Repo) rel(abs string) (string, error) {
	if strings.ContainsAny(abs, "\n\x00") {
		return "", i18n.Errorf("shadow: cannot track %q: newline in its path", abs)
	}
	for _, root := range []string{r.workspace, r.resolved} {
		rel, err := filepath.Rel(root, filepath.Clean(abs))
		if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel), nil
		}
	}
	return "", i18n.Errorf("shadow: %s is not inside the workspace %s", abs, r.workspace)
}

func (r *Repo) abs(rel string) string { return filepath.Join(r.workspace, filepath.FromSlash(rel)) }

// chain returns rel's ancestor folders, outermost first, then rel.
func chain(rel string) []string {
	var out []string
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		out = append([]string{d}, out...)
	}
	return append(out, rel)
}

// locked runs fn holding the repository's lock, with the folder and git
// repository created; fn gets the current state and, when it returns
// save, the state is written back.
func (r *Repo) locked(ctx context.Context, fn func(st *state) (save bool, err error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(filepath.Dir(r.dir)), 0o700); err != nil { // CHATCLI_HOME
		return i18n.Errorf("shadow: %w", err)
	}
	for _, d := range []string{filepath.Dir(r.dir), r.dir} {
		if err := realDir(d); err != nil {
			return err
		}
	}
	unlock, err := lockDir(ctx, r.dir)
	if err != nil {
		return err
	}
	defer unlock()
	if err := r.writeWorkspaceFile(); err != nil {
		return err
	}
	if err := r.prepare(); err != nil {
		return err
	}
	st, _, err := r.readState()
	if err != nil {
		return err
	}
	save, err := fn(st)
	if err != nil || !save {
		return err
	}
	return r.writeState(st.encode())
}

// lockDir takes the flock(2) of the repository in dir, waiting at most
// lockTimeout, and returns its release.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	lock, err := storefile.NewLock(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR)
	if err != nil {
		return nil, i18n.Errorf("shadow: %w", err)
	}
	ok, err := lock.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !ok {
		return nil, i18n.Errorf("shadow: lock %s: %w", lock.Path(), errors.Join(err, ctx.Err()))
	}
	return func() { lock.Unlock() }, nil
}

// realDir creates the store folder d when it is missing (0700) and checks
// that it is a folder itself: a link to a folder elsewhere, a FIFO or a
// file there is an error wrapping storefile.ErrNotRegular, and nothing is
// created or written through it.
func realDir(d string) error {
	if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return i18n.Errorf("shadow: %w", err)
	}
	if err := storefile.Dir(d); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	return nil
}

func (r *Repo) statePath() string { return filepath.Join(r.dir, "state") }
func (r *Repo) headPath() string  { return filepath.Join(r.dir, "head") }

// stateHash is the digest of manifest bytes kept in head: their SHA-256
// hex, or with a key the hex of seal.MAC(key, "shadow state", manifest),
// which confirms no guessed manifest to someone without the key.
func (r *Repo) stateHash(data []byte) string {
	if s, ok := r.store.(*sealedStore); ok {
		if m, err := seal.MAC(s.key, stateLabel, data); err == nil {
			return hex.EncodeToString(m)
		}
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// writeWorkspaceFile records the workspace path, once.
func (r *Repo) writeWorkspaceFile() error {
	p := filepath.Join(r.dir, "workspace")
	if _, err := os.Lstat(p); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return i18n.Errorf("shadow: %w", err)
	}
	if err := atomicfile.WriteFile(p, []byte(r.workspace+"\n")); err != nil {
		return i18n.Errorf("shadow: %w", err)
	}
	return nil
}

// capture returns the states of rels on disk, writing file contents and
// link targets into the object store (regular files in one git run).
func (r *Repo) capture(rels []string) (map[string]entry, error) {
	out := map[string]entry{}
	var files, abss []string
	for _, rel := range rels {
		e, err := statOnly(r.abs(rel))
		if err != nil {
			return nil, err
		}
		switch e.Kind {
		case kindFile:
			files, abss = append(files, rel), append(abss, r.abs(rel))
		case kindLink:
			t, err := os.Readlink(r.abs(rel))
			if err != nil {
				return nil, i18n.Errorf("shadow: %w", err)
			}
			if e.Blob, err = r.store.hashData([]byte(t)); err != nil {
				return nil, err
			}
		}
		out[rel] = e
	}
	ids, err := r.store.hashFiles(abss)
	if err != nil {
		return nil, err
	}
	for i, rel := range files {
		e := out[rel]
		e.Blob = ids[i]
		out[rel] = e
	}
	return out, nil
}

// statOnly is look without reading contents.
func statOnly(abs string) (entry, error) {
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return entry{Kind: kindGone}, nil
	case err != nil:
		return entry{}, i18n.Errorf("shadow: %w", err)
	case fi.IsDir():
		return entry{Kind: kindDir, Perm: fi.Mode().Perm()}, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		return entry{Kind: kindLink, Perm: fi.Mode().Perm()}, nil
	case fi.Mode().IsRegular():
		return entry{Kind: kindFile, Perm: fi.Mode().Perm()}, nil
	}
	return entry{}, i18n.Errorf("shadow: %s is not a regular file, folder or symbolic link", abs)
}
