package shadow

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/seal"
)

// threeTurns seeds a workspace, then runs three turns of tool changes with
// a checkpoint before each, returning the ids and the workspace snapshot
// at each checkpoint.
func threeTurns(t *testing.T, w *workspace) (ids []string, snaps []map[string]string) {
	t.Helper()
	w.seed("a.go", "package a // 0\n", 0o644)
	w.seed("keep.go", "untouched\n", 0o600)
	w.seed("tools/del.sh", "#!/bin/sh\necho gone\n", 0o755)
	take := func() {
		ids = append(ids, w.checkpoint())
		snaps = append(snaps, snapshot(t, w.dir, true))
	}
	take() // before turn 1
	w.write("a.go", "package a // 1\n")
	take() // before turn 2
	w.write("b.go", "package b // 2\n")
	w.write("dir/sub/c.go", "package c // 2\n")
	w.write("a.go", "package a // 2\n")
	take() // before turn 3
	w.remove("tools/del.sh")
	w.repo.SetClock(func() time.Time { return time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC) })
	w.repo.Command("go test ./...")
	w.write("b.go", "package b // 3\n")
	take() // after turn 3
	return ids, snaps
}

func restore(t *testing.T, w *workspace, id string, overwrite func(string) bool) Report {
	t.Helper()
	p, err := w.repo.Plan(id)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := w.repo.Restore(context.Background(), p, overwrite)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRewindRestoresEachCheckpoint(t *testing.T) { eachStore(t, testRewindRestoresEachCheckpoint) }

func testRewindRestoresEachCheckpoint(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	ids, snaps := threeTurns(t, w)
	if ids[0] != EmptyID {
		t.Fatalf("first checkpoint %s, want EmptyID", ids[0])
	}
	if len(slices.Compact(slices.Clone(ids))) != 4 {
		t.Fatalf("ids not distinct: %v", ids)
	}
	p, err := w.repo.Plan(ids[1])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Changes {
		got = append(got, c.Path+" "+string(c.Action))
	}
	want := []string{"a.go restore", "b.go remove", "dir remove folder", "dir/sub remove folder",
		"dir/sub/c.go remove", "tools/del.sh recreate"}
	if !slices.Equal(got, want) {
		t.Fatalf("plan:\n%v\nwant\n%v", got, want)
	}
	if len(p.Commands) != 1 || p.Commands[0].Line != "go test ./..." || p.Commands[0].Time.Year() != 2027 {
		t.Fatalf("commands not undoable: %+v", p.Commands)
	}
	// Back to before turn 2, then before turn 1.
	for _, i := range []int{1, 0} {
		rep := restore(t, w, ids[i], func(string) bool { t.Fatal("no hand edit here"); return false })
		if d := diff(snaps[i], snapshot(t, w.dir, true)); d != "" {
			t.Fatalf("after restoring checkpoint %d:\n%s", i, d)
		}
		if len(rep.Skipped) != 0 {
			t.Fatalf("skipped %+v", rep.Skipped)
		}
		if i == 1 && (len(rep.Commands) != 1 || len(rep.Done) != len(want)) {
			t.Fatalf("report %+v", rep)
		}
	}
	// Forward again to the end of turn 3, and straight back to the start.
	for _, i := range []int{3, 2, 0} {
		restore(t, w, ids[i], nil)
		if d := diff(snaps[i], snapshot(t, w.dir, true)); d != "" {
			t.Fatalf("after restoring checkpoint %d:\n%s", i, d)
		}
	}
	if p, err := w.repo.Plan(ids[0]); err != nil || len(p.Changes) != 0 {
		t.Fatalf("plan at the restored state: %+v %v", p.Changes, err)
	}
}

func TestHandEditIsKeptUnlessConfirmed(t *testing.T) { eachStore(t, testHandEditIsKeptUnlessConfirmed) }

func testHandEditIsKeptUnlessConfirmed(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	ids, snaps := threeTurns(t, w)
	hand := "package b // by hand\n"
	w.seed("b.go", hand, 0o644)
	p, err := w.repo.Plan(ids[1])
	if err != nil {
		t.Fatal(err)
	}
	if got := p.HandEdited(); !slices.Equal(got, []string{"b.go"}) {
		t.Fatalf("hand edited %v", got)
	}
	var asked []string
	rep, err := w.repo.Restore(context.Background(), p, func(path string) bool { asked = append(asked, path); return false })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []string{"b.go"}) || len(rep.Skipped) != 1 || rep.Skipped[0].Path != "b.go" {
		t.Fatalf("asked %v, skipped %+v", asked, rep.Skipped)
	}
	if data, _ := os.ReadFile(w.path("b.go")); string(data) != hand {
		t.Fatalf("declined hand edit overwritten: %q", data)
	}
	// Everything else is back to checkpoint 1.
	now := snapshot(t, w.dir, true)
	delete(now, "b.go")
	if d := diff(snaps[1], now); d != "" {
		t.Fatalf("other files:\n%s", d)
	}
	// Asked again, yes this time: b.go goes (it did not exist at checkpoint 1).
	rep = restore(t, w, ids[1], func(string) bool { return true })
	if len(rep.Done) != 1 || rep.Done[0].Path != "b.go" {
		t.Fatalf("report %+v", rep)
	}
	if d := diff(snaps[1], snapshot(t, w.dir, true)); d != "" {
		t.Fatalf("after confirming:\n%s", d)
	}
}

func TestUserRepositoryIsUntouched(t *testing.T) { eachStore(t, testUserRepositoryIsUntouched) }

func testUserRepositoryIsUntouched(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	w.seed("a.go", "package a\n", 0o644)
	w.seed("tools/del.sh", "x\n", 0o755)
	userGit(t, w.dir, "init", "-q")
	userGit(t, w.dir, "add", "a.go", "tools/del.sh")
	userGit(t, w.dir, "commit", "-q", "-m", "start")
	before := snapshot(t, w.path(".git"), false)
	ids, _ := threeTurns(t, w)
	restore(t, w, ids[1], nil)
	restore(t, w, ids[0], nil)
	if d := diff(before, snapshot(t, w.path(".git"), false)); d != "" {
		t.Fatalf("the workspace's .git changed:\n%s", d)
	}
	kept := "/git/HEAD"
	if !key.IsZero() {
		kept = "/manifests"
	}
	if _, err := os.Stat(w.repo.Path() + kept); err != nil {
		t.Fatalf("no shadow repository: %v", err)
	}
}

func TestCheckpointWithoutChangesIsCheapAndStable(t *testing.T) {
	eachStore(t, testCheckpointWithoutChangesIsCheapAndStable)
}

func testCheckpointWithoutChangesIsCheapAndStable(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	for i := 0; i < 3; i++ {
		if id := w.checkpoint(); id != EmptyID {
			t.Fatalf("no change yet: %s", id)
		}
	}
	if _, err := os.Stat(w.repo.Path()); !os.IsNotExist(err) {
		t.Fatalf("nothing may be written before a change: %v", err)
	}
	w.seed("a.go", "a\n", 0o644)
	w.write("a.go", "b\n")
	id := w.checkpoint()
	head, _ := os.ReadFile(w.repo.headPath())
	start := time.Now()
	const n = 200
	for i := 0; i < n; i++ {
		if got := w.checkpoint(); got != id {
			t.Fatalf("id changed without a change: %s then %s", id, got)
		}
	}
	per := time.Since(start) / n
	t.Logf("Checkpoint without change: %v each", per)
	if per > 2*time.Millisecond {
		t.Fatalf("Checkpoint without change took %v (no git run expected)", per)
	}
	if after, _ := os.ReadFile(w.repo.headPath()); string(after) != string(head) {
		t.Fatal("a commit was made without a change")
	}
	// A new change gives a new id; the same content again gives a new id
	// too, since the manifest records the state, not the history.
	w.write("a.go", "c\n")
	if id2 := w.checkpoint(); id2 == id || !idPattern.MatchString(id2) {
		t.Fatalf("after a change: %s (was %s)", id2, id)
	}
}

func TestBadIDsAndMissingWorkspace(t *testing.T) { eachStore(t, testBadIDsAndMissingWorkspace) }

func testBadIDsAndMissingWorkspace(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	for _, id := range []string{"", "garbage", "0123", "ZZZZ5dc642cb6eb9a060e54bf8d69288fbee4904"} {
		if _, err := w.repo.Plan(id); !errors.Is(err, ErrUnknownCheckpoint) {
			t.Fatalf("Plan(%q): %v", id, err)
		}
	}
	w.seed("a.go", "a\n", 0o644)
	w.write("a.go", "b\n")
	w.checkpoint()
	for _, id := range []string{"0123456789012345678901234567890123456789", blobID([]byte("b\n"))} {
		_, err := w.repo.Plan(id)
		if !errors.Is(err, ErrUnknownCheckpoint) {
			t.Fatalf("Plan(%q): %v", id, err)
		}
	}
	if _, err := w.repo.Restore(context.Background(), Plan{ID: "nope"}, nil); !errors.Is(err, ErrUnknownCheckpoint) {
		t.Fatalf("Restore with a bad id: %v", err)
	}
	if err := w.repo.BeforeChange(w.path("new\nline")); err == nil {
		t.Fatal("a path with a newline was accepted")
	}
	if err := w.repo.BeforeChange("/etc/passwd"); err == nil {
		t.Fatal("a path outside the workspace was accepted")
	}
	if err := w.repo.AfterChange(w.path("never.go")); !errors.Is(err, ErrNotTracked) {
		t.Fatalf("AfterChange without BeforeChange: %v", err)
	}
	if _, err := Open(w.home, w.path("missing"), w.key); err == nil {
		t.Fatal("Open of a missing workspace succeeded")
	}
	if err := os.RemoveAll(w.dir); err != nil {
		t.Fatal(err)
	}
	if _, err := w.repo.Plan(EmptyID); err == nil {
		t.Fatal("Plan in a removed workspace succeeded")
	}
}

func TestGitMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Open(t.TempDir(), t.TempDir(), seal.Key{}); !errors.Is(err, ErrGitMissing) {
		t.Fatalf("Open without git: %v", err)
	}
}

func TestAwkwardNamesRoundTrip(t *testing.T) { eachStore(t, testAwkwardNamesRoundTrip) }

func testAwkwardNamesRoundTrip(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	names := []string{`"quoted" name.txt`, "espaço/ação ü.md", "-dash", `back\slash`}
	for _, n := range names {
		w.seed(n, "before "+n, 0o640)
	}
	before := snapshot(t, w.dir, true)
	id := w.checkpoint()
	for _, n := range names {
		w.write(n, "after")
	}
	w.write(`"new`, "created")
	if w.checkpoint() == id {
		t.Fatal("no new checkpoint")
	}
	restore(t, w, id, nil)
	if d := diff(before, snapshot(t, w.dir, true)); d != "" {
		t.Fatal(d)
	}
}
