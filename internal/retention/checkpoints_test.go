package retention

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/shadow"
)

// shadowRepo makes the checkpoint repository of a new workspace under
// home the way coder mode does (one file changed through the hooks) and
// returns the workspace and the repository's folder.
func shadowRepo(t *testing.T, home string) (string, string) {
	t.Helper()
	ws := t.TempDir()
	r, err := shadow.Open(home, ws, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ws, "main.go")
	if err := r.BeforeChange(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.AfterChange(p); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	return ws, r.Path()
}

func TestCheckpointRepositoryOfARemovedWorkspaceIsRemoved(t *testing.T) {
	f := newFixture(t)
	_, keep := shadowRepo(t, f.home)
	goneWS, gone := shadowRepo(t, f.home)
	busyWS, busy := shadowRepo(t, f.home)
	for _, ws := range []string{goneWS, busyWS} {
		if err := os.RemoveAll(ws); err != nil {
			t.Fatal(err)
		}
	}
	p := f.plan(DefaultRules())
	got := names(p.Items, ReasonWorkspaceGone)
	want := []string{goneWS, busyWS}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(p.Items) != 2 {
		t.Fatalf("plan %+v", p.Items)
	}
	for _, it := range p.Items {
		if it.Kind != KindCheckpoints || it.Files == 0 || it.SizeBytes == 0 {
			t.Fatalf("item %+v", it)
		}
	}
	lines, err := Report(f.home, DefaultRules(), now)
	if err != nil {
		t.Fatal(err)
	}
	var line StoreLine
	for _, l := range lines {
		if l.Store == "checkpoints" {
			line = l
		}
		if l.Store == "other files" && l.Files != 0 {
			t.Fatalf("checkpoint files counted as other: %+v", l)
		}
	}
	if line.Files == 0 || line.RemoveFiles == 0 || line.RemoveFiles >= line.Files || !strings.Contains(line.Rule, "workspace no longer exists") {
		t.Fatalf("checkpoints line %+v", line)
	}
	// A repository in use by a running chatcli is left alone.
	lock := flock.New(filepath.Join(busy, "lock"))
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer lock.Unlock()
	res, err := Apply(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 1 || res.Removed[0].Path != gone || len(res.Skipped) != 1 || res.Skipped[0].Name != busyWS {
		t.Fatalf("result %+v", res)
	}
	if s := Summary(res); !strings.Contains(s, "deleted 1 checkpoint repository") {
		t.Fatalf("summary %q", s)
	}
	for dir, want := range map[string]bool{keep: true, gone: false, busy: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Fatalf("%s exists=%v, want %v", dir, err == nil, want)
		}
	}
	if left, _ := os.ReadDir(shadow.Dir(f.home)); len(left) != 2 {
		t.Fatalf("left in checkpoints/: %v", left)
	}
}

func TestCheckpointRepositoryWithoutWorkspaceFileIsKept(t *testing.T) {
	f := newFixture(t)
	ws, dir := shadowRepo(t, f.home)
	os.RemoveAll(ws)
	if err := os.Remove(filepath.Join(dir, "workspace")); err != nil {
		t.Fatal(err)
	}
	p := f.plan(DefaultRules())
	if len(p.Items) != 0 || len(p.Spared) != 1 || !strings.Contains(p.Spared[0].Why, "unknown workspace") {
		t.Fatalf("plan %+v spared %+v", p.Items, p.Spared)
	}
}
