package shadow

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// A repository whose git folder is a link to a git repository elsewhere is
// refused: git is never run on it, and its modes are not changed through
// the link.
func TestALinkedGitFolderIsRefused(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	w := newWorkspace(t, seal.Key{})
	w.seed("a.txt", "one\n", 0o644)
	outside := filepath.Join(t.TempDir(), "elsewhere.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", outside).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.Chmod(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, outside, false)
	if err := os.MkdirAll(w.repo.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(w.repo.Path(), "git")); err != nil {
		t.Fatal(err)
	}
	err := w.repo.BeforeChange(w.path("a.txt"))
	if err == nil {
		_, err = w.repo.Checkpoint()
	}
	if !errors.Is(err, storefile.ErrNotRegular) {
		t.Errorf("a linked git folder: %v, want an error wrapping ErrNotRegular", err)
	}
	if d := diff(before, snapshot(t, outside, false)); d != "" {
		t.Errorf("the repository outside the store changed:\n%s", d)
	}
	if fi, err := os.Stat(outside); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("its mode: %v %v", fi.Mode(), err)
	}
}

// A checkpoints folder that is a FIFO or a link is not listed through
// (reading a FIFO as a folder would wait for a writer for ever).
func TestListRefusesACheckpointsFolderThatIsNone(t *testing.T) {
	for name, plant := range map[string]func(p string) error{
		"named pipe": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"link":       func(p string) error { return os.Symlink(t.TempDir(), p) },
	} {
		home := t.TempDir()
		if err := plant(Dir(home)); err != nil {
			t.Fatal(err)
		}
		if _, err := List(home); !errors.Is(err, storefile.ErrNotRegular) {
			t.Errorf("%s: %v, want an error wrapping ErrNotRegular", name, err)
		}
	}
}

// A checkpoints folder, or a repository folder, that is a link to a folder
// elsewhere is refused before anything is created through it.
func TestALinkedCheckpointsFolderIsRefused(t *testing.T) {
	eachStore(t, func(t *testing.T, key seal.Key) {
		for _, at := range []func(w *workspace) string{
			func(w *workspace) string { return Dir(w.home) },
			func(w *workspace) string { return w.repo.Path() },
		} {
			w := newWorkspace(t, key)
			w.seed("a.txt", "one\n", 0o644)
			outside := t.TempDir()
			p := at(w)
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
			if err := w.repo.BeforeChange(w.path("a.txt")); !errors.Is(err, storefile.ErrNotRegular) {
				t.Errorf("%s a link: %v, want an error wrapping ErrNotRegular", p, err)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Errorf("%s a link: written through it: %v", p, ents)
			}
		}
	})
}
