package shadow

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ErrGitMissing is returned by Open when the git command is not on PATH.
var ErrGitMissing = i18n.Errorf("shadow: git not found on PATH (file checkpoints in coder mode need git)")

// gitOptions are passed to every git run: no automatic gc or maintenance,
// no hooks, no fsmonitor, no signing, whatever a configuration says.
var gitOptions = []string{"-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false", "-c", "commit.gpgSign=false", "-c", "core.autocrlf=false"}

// gitStore is the object store of a repository without an encryption
// key: a bare git repository in dir/git, driven through the git command at
// gitPath.
type gitStore struct {
	dir     string // the repository folder (holding git/ and index)
	gitPath string
}

var _ objectStore = (*gitStore)(nil)

// git runs the git command with the shadow repository's environment,
// stdin as its input, and returns its standard output. Errors carry git's
// standard error.
func (r *gitStore) git(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command(r.gitPath, append(append([]string{}, gitOptions...), args...)...)
	cmd.Dir = r.dir
	cmd.Env = r.gitEnv()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, i18n.Errorf("shadow: git %s in %s: %w: %s", args[0], r.dir, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// gitEnv is the environment of git runs: the process's own without any
// GIT_* variable, then the shadow repository's.
func (r *gitStore) gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_DIR="+filepath.Join(r.dir, "git"),
		"GIT_INDEX_FILE="+filepath.Join(r.dir, "index"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"HOME="+r.dir,
		"XDG_CONFIG_HOME="+r.dir,
		"GIT_AUTHOR_NAME=chatcli", "GIT_AUTHOR_EMAIL=chatcli@localhost",
		"GIT_COMMITTER_NAME=chatcli", "GIT_COMMITTER_EMAIL=chatcli@localhost",
		"GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
	)
}

// create makes the bare repository when it does not exist yet, readable
// by its owner only (--shared=0600: folders 0700, files 0600, objects
// 0400) and without sample hooks (an empty template).
func (r *gitStore) create() error {
	if ok, err := hasGit(r.dir); err != nil || ok {
		if err != nil {
			return err
		}
		return r.ownerOnly()
	}
	_, err := r.git(nil, "-c", "init.defaultBranch=checkpoints", "init", "--quiet", "--bare", "--shared=0600",
		"--template=", filepath.Join(r.dir, "git"))
	return err
}

// hashFiles writes the contents of the files at abs paths into the object
// store (one git run) and returns their blob ids in order.
func (r *gitStore) hashFiles(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n") {
			return nil, i18n.Errorf("shadow: cannot track %q: newline in its path", p)
		}
		in.WriteString(p + "\n")
	}
	out, err := r.git(in.Bytes(), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return nil, err
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(paths) {
		return nil, i18n.Errorf("shadow: git hash-object returned %d ids for %d files", len(ids), len(paths))
	}
	return ids, nil
}

// hashData writes data into the object store as a blob and returns its id.
func (r *gitStore) hashData(data []byte) (string, error) {
	out, err := r.git(data, "hash-object", "-w", "--no-filters", "--stdin")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// readBlobs returns the contents of the blobs ids, by id (one git run).
// An id may be any object name git resolves to a blob ("<commit>:path");
// ids git does not find are left out.
func (r *gitStore) readBlobs(ids []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(ids) == 0 {
		return out, nil
	}
	var in bytes.Buffer
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	raw, err := r.git(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		nl := bytes.IndexByte(raw, '\n')
		if nl < 0 {
			return nil, i18n.Errorf("shadow: git cat-file: truncated output")
		}
		f := strings.Fields(string(raw[:nl]))
		if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
			raw = raw[nl+1:]
			continue
		}
		if len(f) != 3 {
			return nil, i18n.Errorf("shadow: git cat-file: object %s", strings.Join(f, " "))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || nl+1+size+1 > len(raw) {
			return nil, i18n.Errorf("shadow: git cat-file: truncated output")
		}
		out[id] = raw[nl+1 : nl+1+size]
		raw = raw[nl+1+size+1:]
	}
	return out, nil
}

// blobID is git's object id of a blob holding data: the SHA-1 of
// "blob <size>\x00" and data (gitformat-object), computed without git.
func blobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// ownerOnly makes a repository an earlier version created with the umask's
// modes (0755 folders, 0644 files) its owner's alone, once: the folders
// from checkpoints/ down become 0700, files lose every group and other bit,
// and the repository's config gets core.sharedRepository=0600 so git keeps
// it so.
func (r *gitStore) ownerOnly() error {
	fi, err := os.Lstat(filepath.Join(r.dir, "git"))
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return err
	}
	err = filepath.WalkDir(r.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := info.Mode().Perm() &^ 0o077
		if d.IsDir() {
			mode = 0o700
		}
		return os.Chmod(p, mode)
	})
	if err == nil {
		err = os.Chmod(filepath.Dir(r.dir), 0o700)
	}
	if err != nil {
		return i18n.Errorf("shadow: make %s private: %w", r.dir, err)
	}
	_, err = r.git(nil, "config", "core.sharedRepository", "0600")
	return err
}
