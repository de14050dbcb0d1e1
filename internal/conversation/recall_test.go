package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// recallKey is the recall key the summary of h lists for the turn whose
// prompt starts with prefix, "" when none.
func recallKey(h []message.Message, prefix string) string {
	for _, m := range h {
		if !isSummaryMsg(m) {
			continue
		}
		for _, l := range strings.Split(m.Content, "\n") {
			if rest, ok := strings.CutPrefix(l, recallPrefix); ok && strings.Contains(l, prefix) {
				key, _, _ := strings.Cut(rest, ":")
				return key
			}
		}
	}
	return ""
}

// The keys of a first compaction survive a second one, and each brings its
// turn back verbatim from the journal; an unknown key is ErrNoRecall.
func TestRecallKeysSurviveLaterCompactions(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	filler := strings.Repeat("filler words for size ", 40)
	for i := range 14 {
		turn(t, e, fmt.Sprintf("first-round %d %s", i, filler))
	}
	if _, err := e.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	key := recallKey(e.History(), "first-round 0 ")
	if key == "" {
		t.Fatalf("no key for the first turn:\n%s", e.History()[0].Content)
	}
	for i := range 14 {
		turn(t, e, fmt.Sprintf("second-round %d %s", i, filler))
	}
	if _, err := e.Compact(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if k := recallKey(e.History(), "first-round 0 "); k != key {
		t.Fatalf("the first compaction's key %q became %q", key, k)
	}
	if recallKey(e.History(), "second-round 0 ") == "" {
		t.Fatal("no key for the second compaction's turns")
	}
	msgs, err := e.Recall(key)
	if err != nil || len(msgs) != 2 || !strings.HasPrefix(msgs[0].Content, "first-round 0 ") || msgs[1].Role != message.RoleAssistant {
		t.Fatalf("recall %s: %v %+v", key, err, msgs)
	}
	if _, err := e.Recall("r0000000000"); !errors.Is(err, ErrNoRecall) {
		t.Fatalf("unknown key: %v", err)
	}
}
