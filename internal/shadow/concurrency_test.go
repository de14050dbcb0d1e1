package shadow

import (
	"fmt"
	"sync"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// Two repositories opened on one workspace stand for two chatcli
// processes: their flock(2) locks exclude each other even in one process
// (each holds its own open file description).
func TestTwoProcessesShareOneRepository(t *testing.T) {
	eachStore(t, testTwoProcessesShareOneRepository)
}

func testTwoProcessesShareOneRepository(t *testing.T, key seal.Key) {
	w := newWorkspace(t, key)
	other, err := Open(w.home, w.dir, w.key)
	if err != nil {
		t.Fatal(err)
	}
	repos := []*Repo{w.repo, other}
	const perRepo = 3
	var wg sync.WaitGroup
	errs := make(chan error, 2*perRepo*3)
	for i, r := range repos {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < perRepo; j++ {
				p := w.path(fmt.Sprintf("p%d/f%d.txt", i, j))
				if err := r.BeforeChange(p); err != nil {
					errs <- err
					return
				}
				writeOrFail(p, fmt.Sprintf("%d-%d\n", i, j), errs)
				if err := r.AfterChange(p); err != nil {
					errs <- err
				}
				r.Command(fmt.Sprintf("echo %d %d", i, j))
				if _, err := r.Checkpoint(); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	p, err := w.repo.Plan(EmptyID)
	if err != nil {
		t.Fatal(err)
	}
	// Every file and its folder is tracked, every command recorded.
	if len(p.Changes) != 2*perRepo+2 || len(p.Commands) != 2*perRepo {
		t.Fatalf("plan has %d changes and %d commands: %+v", len(p.Changes), len(p.Commands), p)
	}
	restore(t, w, EmptyID, nil)
	if s := snapshot(t, w.dir, true); len(s) != 1 { // the workspace folder itself
		t.Fatalf("left after restoring to the start: %v", s)
	}
}
