package journal

import (
	"slices"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// Two windows each commit their own "continue" after the same base: both
// hash it H("continue", occurrence 0), and both prompts are kept.
func TestSameContentFromTwoWindowsIsNotOneMessage(t *testing.T) {
	base := []message.Message{msg("user", "q0"), msg("assistant", "a0")}
	a, b, dir, id := two(t, base)
	commit(t, a, append(slices.Clone(base), msg("user", "continue")))
	c := commit(t, b, append(slices.Clone(base), msg("user", "continue")))
	t.Logf("b's history %q adopted %d", contents(c.History), c.Adopted)
	wantView(t, dir, id, "q0", "a0", "continue", "continue")
}

// A snapshot's position taken before the journal was rekeyed (its lines
// moved): the handle reads the journal again from the top and rebases on
// the history at its record number, so a compaction another window made
// since is followed only by this side's new message.
func TestAStaleOffsetRebasesOnTheRightHistory(t *testing.T) {
	k, err := seal.ParseKey("q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=")
	if err != nil {
		t.Fatal(err)
	}
	dir, id := t.TempDir(), NewID()
	old := []message.Message{msg("system", "sys"), msg("user", "q0"), msg("assistant", "a0"), msg("user", "q1"), msg("assistant", "a1")}
	w := open(t, dir, id)
	sync1(t, w, old, len(old))
	pos := w.Pos() // what the session file names
	if _, _, err := Rekey(Path(dir, id), seal.Key{}, k); err != nil {
		t.Fatal(err)
	}
	x, err := OpenAt(dir, id, k, pos, HashHistory(old), nil) // window X loads the session
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Open(dir, id, k) // window B compacts
	if err != nil {
		t.Fatal(err)
	}
	compacted := []message.Message{msg("system", "sys"), msg("user", "summary"), msg("assistant", "a1")}
	if _, err := b.Sync(compacted, ReasonCompact); err != nil {
		t.Fatal(err)
	}
	c, err := x.Commit(append(slices.Clone(old), msg("user", "qx")), &Hashes{}, ReasonSync, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := contents(c.History); !slices.Equal(got, []string{"sys", "summary", "a1", "qx"}) {
		t.Fatalf("X's history after its commit: %q", got)
	}
}
