package shadow

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// workspace is a test workspace with its shadow repository, changed
// through the hooks the way a tool changes files.
type workspace struct {
	t    *testing.T
	dir  string
	home string
	key  seal.Key
	repo *Repo
}

// testKey is the encryption key of the sealed store's tests.
func testKey(t testing.TB) seal.Key {
	t.Helper()
	k, err := seal.ParseKey("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// eachStore runs test without a key (the git store) and with one (the
// sealed store): both must behave the same.
func eachStore(t *testing.T, test func(t *testing.T, key seal.Key)) {
	t.Run("git", func(t *testing.T) { test(t, seal.Key{}) })
	t.Run("sealed", func(t *testing.T) { test(t, testKey(t)) })
}

// newWorkspace makes a workspace whose repository has key (the zero Key:
// none).
func newWorkspace(t *testing.T, key seal.Key) *workspace {
	t.Helper()
	w := &workspace{t: t, dir: t.TempDir(), home: t.TempDir(), key: key}
	t.Setenv("CHATCLI_HOME", w.home)
	r, err := Open(w.home, w.dir, key)
	if err != nil {
		t.Fatal(err)
	}
	w.repo = r
	return w
}

func (w *workspace) path(rel string) string { return filepath.Join(w.dir, filepath.FromSlash(rel)) }

// seed writes a file without the hooks (as the user would).
func (w *workspace) seed(rel, content string, perm fs.FileMode) {
	w.t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		w.t.Fatal(err)
	}
}

// write changes a file as a tool does: BeforeChange, write, AfterChange.
func (w *workspace) write(rel, content string) {
	w.t.Helper()
	p := w.path(rel)
	if err := w.repo.BeforeChange(p); err != nil {
		w.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	if err := w.repo.AfterChange(p); err != nil {
		w.t.Fatal(err)
	}
}

// remove deletes a file as a tool does.
func (w *workspace) remove(rel string) {
	w.t.Helper()
	p := w.path(rel)
	if err := w.repo.BeforeChange(p); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		w.t.Fatal(err)
	}
	if err := w.repo.AfterChange(p); err != nil {
		w.t.Fatal(err)
	}
}

func (w *workspace) checkpoint() string {
	w.t.Helper()
	id, err := w.repo.Checkpoint()
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

// snapshot returns every file and folder under dir (but .git) with its
// mode and a hash of its content: equal snapshots mean byte-identical
// trees.
func snapshot(t *testing.T, dir string, skipGit bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if skipGit && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[rel] = "dir " + fi.Mode().String()
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = fi.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diff lists how two snapshots differ.
func diff(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k+": "+v+" -> "+b[k])
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k+": (none) -> "+v)
		}
	}
	return strings.Join(out, "\n")
}

// userGit runs git in the workspace as its user would, with a fixed
// identity.
func userGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=u", "-c", "user.email=u@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeOrFail(p, content string, errs chan<- error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		errs <- err
		return
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		errs <- err
	}
}
