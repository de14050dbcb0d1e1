package journal

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// cpList is a checkpoint list of n entries named from first on, in the
// JSON form the engine gives Commit.
func cpList(first, n int) json.RawMessage {
	var parts []string
	for i := first; i < first+n; i++ {
		parts = append(parts, fmt.Sprintf(`{"prompt":"p%d","messages":%d}`, i, i))
	}
	return json.RawMessage("[" + strings.Join(parts, ",") + "]")
}

// commitCps commits h with checkpoint list cps and returns the records it
// appended.
func commitCps(t *testing.T, j *Journal, h []message.Message, cps json.RawMessage) []Record {
	t.Helper()
	before := j.Pos()
	if _, err := j.Commit(h, &Hashes{}, ReasonSync, func(json.RawMessage) json.RawMessage { return cps }); err != nil {
		t.Fatal(err)
	}
	recs, _, _, err := ReadAfter(j.Path(), noKey, before)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// replayCps is the checkpoint list of the journal read from its top.
func replayCps(t *testing.T, path string) string {
	t.Helper()
	recs, _, err := ReadAll(path, noKey)
	if err != nil {
		t.Fatal(err)
	}
	var l CheckpointList
	for _, r := range recs {
		l.Apply(&r)
	}
	return string(l.JSON())
}

func TestACheckpointAddedIsRecordedOnTheTurnsRecord(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	var h []message.Message
	for i := range 25 { // past a list of 20: the oldest drops out
		h = append(h, msg("user", fmt.Sprint("q", i)))
		n := min(i+1, 20)
		cps := cpList(i+1-n, n)
		recs := commitCps(t, j, h, cps)
		if len(recs) != 1 || recs[0].Type != TypeMessage || recs[0].Kept != n-1 || recs[0].Checkpoint == nil {
			t.Fatalf("turn %d: records %+v, want one message record adding a checkpoint, keeping %d", i, recs, n-1)
		}
		if got := replayCps(t, j.Path()); got != string(cps) {
			t.Fatalf("turn %d: replayed %s, want %s", i, got, cps)
		}
	}

	// A list that is not the last one plus a checkpoint (a rewind drops
	// the newest) is recorded whole, on a record of its own.
	h = append(h, msg("assistant", "a"))
	cps := cpList(5, 10)
	recs := commitCps(t, j, h, cps)
	if len(recs) != 2 || recs[0].Checkpoint != nil || recs[1].Type != TypeCheckpoints || string(recs[1].Checkpoints) != string(cps) {
		t.Fatalf("rewound list: records %+v", recs)
	}
	// A checkpoint added with no message to carry it: a whole list too.
	cps = cpList(5, 11)
	if recs := commitCps(t, j, h, cps); len(recs) != 1 || recs[0].Type != TypeCheckpoints {
		t.Fatalf("list alone: records %+v", recs)
	}
	if got := replayCps(t, j.Path()); got != string(cps) {
		t.Fatalf("replayed %s, want %s", got, cps)
	}

	// A handle placed at a position has not read the list there: given
	// the snapshot's, a sync that changes nothing writes nothing (a load
	// or a fork leaves the journal as it was); its first change is
	// recorded whole, the next ones as added.
	k, err := OpenAt(dir, id, noKey, j.Pos(), j.View(), cps)
	if err != nil {
		t.Fatal(err)
	}
	if recs := commitCps(t, k, h, cps); len(recs) != 0 {
		t.Fatalf("a sync that changes nothing after OpenAt: records %+v", recs)
	}
	h = append(h, msg("user", "later"))
	if recs := commitCps(t, k, h, cpList(5, 12)); len(recs) != 2 || recs[1].Type != TypeCheckpoints {
		t.Fatalf("first change after OpenAt: records %+v", recs)
	}
	h = append(h, msg("assistant", "a2"), msg("user", "later2"))
	if recs := commitCps(t, k, h, cpList(5, 13)); len(recs) != 2 || recs[1].Kept != 12 {
		t.Fatalf("second change after OpenAt: records %+v", recs)
	}

	// The other handle takes in the checkpoint added, as the list.
	h = append(h, msg("assistant", "a3"))
	c, err := j.Commit(h, &Hashes{}, ReasonSync, nil)
	if err != nil || string(c.Checkpoints) != string(cpList(5, 13)) {
		t.Fatalf("the other handle's list %s (%v)", c.Checkpoints, err)
	}
}

func TestCheckpointListFromASessionFilesList(t *testing.T) {
	l := NewCheckpointList(cpList(0, 3))
	if l.Apply(&Record{Type: TypeMessage}) || string(l.JSON()) != string(cpList(0, 3)) {
		t.Fatalf("a record without bookkeeping changed the list: %s", l.JSON())
	}
	add := Record{Type: TypeMessage, Checkpoint: json.RawMessage(`{"prompt":"p3","messages":3}`), Kept: 3}
	if !l.Apply(&add) || string(l.JSON()) != string(cpList(0, 4)) {
		t.Fatalf("after one added: %s", l.JSON())
	}
	add.Kept = 9 // more than the list holds: all of it is kept
	add.Checkpoint = json.RawMessage(`{"prompt":"p4","messages":4}`)
	if l.Apply(&add); string(l.JSON()) != string(cpList(0, 5)) {
		t.Fatalf("after one added keeping more than the list: %s", l.JSON())
	}
	if l.Apply(&Record{Type: TypeCheckpoints, Checkpoints: json.RawMessage("[]")}); string(l.JSON()) != "[]" {
		t.Fatalf("after a whole list: %s", l.JSON())
	}
}

func TestCheckpointBookkeepingOutOfPlaceIsADamagedRecord(t *testing.T) {
	for _, line := range []string{
		`{"type":"checkpoints","at":"2026-11-30T08:00:00Z","checkpoints":[],"checkpoint":{}}`,
		`{"type":"message","at":"2026-11-30T08:00:00Z","hash":"0123456789abcdef0123456789abcdef","message":{"role":"user","content":"hi"},"checkpoint":[]}`,
		`{"type":"message","at":"2026-11-30T08:00:00Z","hash":"0123456789abcdef0123456789abcdef","message":{"role":"user","content":"hi"},"kept":2}`,
		`{"type":"rewrite","at":"2026-11-30T08:00:00Z","hashes":[],"checkpoint":{},"kept":-1}`,
	} {
		if _, err := DecodeRecord([]byte(line)); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
	ok := `{"type":"rewrite","at":"2026-11-30T08:00:00Z","hashes":[],"checkpoint":{"prompt":"p"},"kept":2}`
	if r, err := DecodeRecord([]byte(ok)); err != nil || r.Kept != 2 || !slices.Equal(r.Checkpoint, json.RawMessage(`{"prompt":"p"}`)) {
		t.Errorf("refused %s: %v", ok, err)
	}
}
