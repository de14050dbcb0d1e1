package shadow

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

const marker = "zebracorn-7741"

// tree returns every file under dir with its content.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkModes fails on any folder or file under dir that its group or
// others may read, write or enter.
func checkModes(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v, want 0700 (folders) or 0600 (files) at most", p, fi.Mode().Perm())
		}
		return nil
	})
}

// markerTurns makes a tool write a file holding the marker, run a command
// line holding it, and checkpoints before and after.
func markerTurns(t *testing.T, w *workspace) (before, after string) {
	t.Helper()
	w.seed("notes.txt", "old "+marker+"\n", 0o644)
	before = w.checkpoint()
	w.write("notes.txt", "new "+marker+"\n")
	w.write("dir/made.txt", marker)
	w.repo.Command("echo " + marker + " > x")
	return before, w.checkpoint()
}

func TestRepositoryModesAreOwnerOnly(t *testing.T) { eachStore(t, testRepositoryModesAreOwnerOnly) }

func testRepositoryModesAreOwnerOnly(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	markerTurns(t, w)
	checkModes(t, Dir(w.home))
}

func TestSealedRepositoryHoldsNoPlaintext(t *testing.T) {
	w := newWorkspace(t, testKey(t))
	before, after := markerTurns(t, w)
	for p, data := range tree(t, w.repo.Path()) {
		if bytes.Contains(data, []byte(marker)) {
			t.Errorf("%s holds the marker in plaintext", p)
		}
		if name := filepath.Base(p); name != "workspace" && name != "lock" && name != "head" && len(data) > 0 && !seal.IsSealed(data) {
			t.Errorf("%s is not sealed: %q", p, data)
		}
	}
	if _, err := os.Stat(filepath.Join(w.repo.Path(), "git")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a git repository was made with a key: %v", err)
	}
	p, err := w.repo.Plan(before)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Commands) != 1 || p.Commands[0].Line != "echo "+marker+" > x" {
		t.Fatalf("commands since: %+v", p.Commands)
	}
	restore(t, w, before, nil)
	if data, _ := os.ReadFile(w.path("notes.txt")); string(data) != "old "+marker+"\n" {
		t.Fatalf("restored %q", data)
	}
	restore(t, w, after, nil)
	if data, _ := os.ReadFile(w.path("dir/made.txt")); string(data) != marker {
		t.Fatalf("restored %q", data)
	}
}

func TestSealedRepositoryRefusesNoKeyAndWrongKey(t *testing.T) {
	w := newWorkspace(t, testKey(t))
	before, _ := markerTurns(t, w)
	plain, err := Open(w.home, w.dir, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.BeforeChange(w.path("notes.txt")); !errors.Is(err, ErrSealed) {
		t.Fatalf("BeforeChange without the key: %v, want ErrSealed", err)
	}
	if _, err := plain.Plan(before); !errors.Is(err, ErrSealed) {
		t.Fatalf("Plan without the key: %v, want ErrSealed", err)
	}
	other, _ := seal.ParseKey("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=")
	wrong, err := Open(w.home, w.dir, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wrong.Plan(before); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("Plan with the wrong key: %v, want seal.ErrWrongKey", err)
	}
	if _, err := wrong.Checkpoint(); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("Checkpoint with the wrong key: %v, want seal.ErrWrongKey", err)
	}
}

func TestSwappedSealedObjectsDoNotOpen(t *testing.T) {
	w := newWorkspace(t, testKey(t))
	w.seed("a.txt", "a0", 0o644)
	w.seed("b.txt", "b0", 0o644)
	id := w.checkpoint()
	w.write("a.txt", "a1")
	w.write("b.txt", "b1")
	s := w.repo.store.(*sealedStore)
	pa, _ := s.objectPath(blobID([]byte("a0")))
	pb, _ := s.objectPath(blobID([]byte("b0")))
	da, _ := os.ReadFile(pa)
	if err := os.WriteFile(pa, mustRead(t, pb), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := w.repo.Plan(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.repo.Restore(context.Background(), p, nil); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("restore from a swapped object: %v, want seal.ErrWrongKey", err)
	}
	if data, _ := os.ReadFile(w.path("a.txt")); string(data) != "a1" {
		t.Fatalf("a.txt became %q after a failed restore", data)
	}
	os.WriteFile(pa, da, 0o600)
	restore(t, w, id, nil)
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A repository written without a key is sealed the first time it is used
// with one; the checkpoints taken before keep their ids and restore.
func TestPlaintextRepositoryIsSealedWhenAKeyIsSet(t *testing.T) {
	w := newWorkspace(t, seal.Key{})
	ids, snaps := threeTurns(t, w)
	w.repo.Command("echo " + marker)
	sealed, err := Open(w.home, w.dir, testKey(t))
	if err != nil {
		t.Fatal(err)
	}
	w.repo, w.key = sealed, testKey(t)
	p, err := w.repo.Plan(ids[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Commands) != 2 {
		t.Fatalf("commands since checkpoint 2: %+v", p.Commands)
	}
	for path, data := range tree(t, w.repo.Path()) {
		if bytes.Contains(data, []byte(marker)) || bytes.Contains(data, []byte("package a")) {
			t.Errorf("%s still holds plaintext", path)
		}
	}
	for _, gone := range []string{"git", "index"} {
		if _, err := os.Stat(filepath.Join(w.repo.Path(), gone)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s kept after sealing: %v", gone, err)
		}
	}
	for i := len(ids) - 1; i >= 0; i-- {
		restore(t, w, ids[i], nil)
		if d := diff(snaps[i], snapshot(t, w.dir, true)); d != "" {
			t.Fatalf("checkpoint %d after sealing:\n%s", i, d)
		}
	}
	checkModes(t, Dir(w.home))
}

// Rekey moves a sealed repository to a new key (and a git-form one to its
// first key): every checkpoint restores under the new key alone, the old
// key opens nothing, and a second run changes nothing.
func TestRekey(t *testing.T) {
	k1 := testKey(t)
	k2, _ := seal.ParseKey("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=")
	for _, from := range []seal.Key{{}, k1} {
		w := newWorkspace(t, from)
		ids, snaps := threeTurns(t, w)
		oldOpen := tree(t, w.repo.Path())
		if changed, err := Rekey(w.repo.Path(), from, k2); err != nil || !changed {
			t.Fatalf("rekey from %v: %v %v", from, changed, err)
		}
		if changed, err := Rekey(w.repo.Path(), from, k2); err != nil || changed {
			t.Fatalf("second rekey: %v %v", changed, err)
		}
		for p, data := range tree(t, w.repo.Path()) {
			if old, ok := oldOpen[p]; ok && !from.IsZero() && seal.IsSealed(data) && bytes.Equal(old, data) {
				t.Errorf("%s was not sealed again", p)
			}
		}
		if !from.IsZero() {
			stale, _ := Open(w.home, w.dir, from)
			if _, err := stale.Plan(ids[1]); !errors.Is(err, seal.ErrWrongKey) {
				t.Fatalf("the old key still opens the state: %v", err)
			}
		}
		if _, err := Rekey(w.repo.Path(), from, k1); !from.IsZero() && !errors.Is(err, seal.ErrWrongKey) {
			t.Fatalf("rekey with keys that do not open it: %v, want seal.ErrWrongKey", err)
		}
		w.repo, _ = Open(w.home, w.dir, k2)
		for i := len(ids) - 1; i >= 0; i-- {
			restore(t, w, ids[i], nil)
			if d := diff(snaps[i], snapshot(t, w.dir, true)); d != "" {
				t.Fatalf("checkpoint %d after rekey:\n%s", i, d)
			}
		}
	}
}

// A git repository an earlier version made with the umask's modes is made
// its owner's alone at its next use.
func TestOldRepositoryModesAreTightened(t *testing.T) {
	w := newWorkspace(t, seal.Key{})
	markerTurns(t, w)
	filepath.WalkDir(Dir(w.home), func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	w.write("later.txt", "x")
	checkModes(t, Dir(w.home))
	w.write("later2.txt", "y")
	checkModes(t, Dir(w.home))
}

// A rekey interrupted after the contents were written under their new
// names, before the old names were removed, removes them when run again:
// no content stays sealed under the old key.
func TestRekeyAgainRemovesOldObjects(t *testing.T) {
	k1 := testKey(t)
	k2, _ := seal.ParseKey("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=")
	w := newWorkspace(t, k1)
	threeTurns(t, w)
	objects := filepath.Join(w.repo.Path(), "objects")
	before := map[string][]byte{}
	ents, _ := os.ReadDir(objects)
	for _, e := range ents {
		before[e.Name()], _ = os.ReadFile(filepath.Join(objects, e.Name()))
	}
	if len(before) == 0 {
		t.Fatal("no objects")
	}
	if _, err := Rekey(w.repo.Path(), k1, k2); err != nil {
		t.Fatal(err)
	}
	for name, data := range before { // as if the removal had not happened
		if err := os.WriteFile(filepath.Join(objects, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Rekey(w.repo.Path(), k1, k2); err != nil {
		t.Fatal(err)
	}
	for name := range before {
		if _, err := os.Lstat(filepath.Join(objects, name)); err == nil {
			t.Errorf("object %s sealed under the old key is still there", name)
		}
	}
}
