package conversation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/google/go-cmp/cmp"
)

// checkpointEngine is an engine on st with the journal under dir and a
// clock that moves one second per reading, so that every checkpoint has
// its own time.
func checkpointEngine(st *session.Store, dir string) *Engine {
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	return New(Options{Store: st, Provider: offline.New(""), JournalDir: dir, Now: func() time.Time {
		clock = clock.Add(time.Second)
		return clock
	}})
}

// journalCheckpoints replays the plaintext journal id under dir from its
// top by the rule of its format (package journal's doc, "Checkpoints"),
// as a reader with no session file does, and returns its checkpoint list
// and how many records set it whole and how many added one checkpoint.
func journalCheckpoints(t *testing.T, dir, id string) (list []rewind.Checkpoint, whole, added int) {
	t.Helper()
	data, err := os.ReadFile(journal.Path(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	var entries []json.RawMessage
	for line := range bytes.Lines(data) {
		var r struct {
			Type        string
			Checkpoints []json.RawMessage
			Checkpoint  json.RawMessage
			Kept        int
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		switch {
		case r.Type == journal.TypeCheckpoints:
			whole++
			entries = r.Checkpoints
		case r.Checkpoint != nil:
			added++
			entries = append(slices.Clone(entries[len(entries)-min(r.Kept, len(entries)):]), r.Checkpoint)
		}
	}
	raw, _ := json.Marshal(entries)
	if list, err = rewind.Decode(raw); err != nil {
		t.Fatal(err)
	}
	return list, whole, added
}

// TestCheckpointsRecordedAsAddedLoadAsTheEngineHoldsThem: each turn adds
// its one checkpoint to the journal (a few hundred bytes, not the whole
// list), and the list a reader rebuilds, from a snapshot plus the
// journal's tail or from the journal alone, is the engine's, past
// MaxCheckpoints, across a rewind and across reloads without an exit.
func TestCheckpointsRecordedAsAddedLoadAsTheEngineHoldsThem(t *testing.T) {
	st, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e := checkpointEngine(st, dir)
	if err := e.Save("s", false); err != nil {
		t.Fatal(err)
	}
	check := func(when string, e *Engine) {
		t.Helper()
		e2 := checkpointEngine(st, dir) // another process, the first still running
		if _, err := e2.Load("s"); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(e.Checkpoints(), e2.Checkpoints()); diff != "" {
			t.Fatalf("%s: checkpoints loaded from the session (-engine +loaded):\n%s", when, diff)
		}
		fromTop, _, _ := journalCheckpoints(t, dir, e.JournalID())
		slices.Reverse(fromTop) // Checkpoints gives the newest first
		if diff := cmp.Diff(e.Checkpoints(), fromTop); diff != "" {
			t.Fatalf("%s: checkpoints replayed from the journal (-engine +journal):\n%s", when, diff)
		}
	}
	for i := range rewind.MaxCheckpoints + 10 {
		turn(t, e, fmt.Sprint("question ", i))
	}
	if n := len(e.Checkpoints()); n != rewind.MaxCheckpoints {
		t.Fatalf("%d checkpoints, want %d", n, rewind.MaxCheckpoints)
	}
	check("after 30 turns", e)
	if _, whole, added := journalCheckpoints(t, dir, e.JournalID()); whole > 1 || added < rewind.MaxCheckpoints+9 {
		t.Fatalf("the journal set the list whole %d times and added a checkpoint %d times over 30 turns", whole, added)
	}

	if _, err := e.Rewind(5); err != nil {
		t.Fatal(err)
	}
	check("after a rewind", e)
	for i := range 3 {
		turn(t, e, fmt.Sprint("after the rewind ", i))
	}
	check("after turns past a rewind", e)

	e3 := checkpointEngine(st, dir) // a reload, then turns in the reloaded engine
	if _, err := e3.Load("s"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		turn(t, e3, fmt.Sprint("after the reload ", i))
	}
	check("after turns past a reload", e3)
	if _, err := e3.Close(false); err != nil {
		t.Fatal(err)
	}
	check("after exit", e3)
}
