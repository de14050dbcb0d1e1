package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/index"
)

// TestPhrasesExclusionsAndFilters: a phrase matches only its words side
// by side, -word leaves out what holds it, and each filter narrows.
func TestPhrasesExclusionsAndFilters(t *testing.T) {
	s := newStore(t, "")
	s.session("ops", "the deploy freeze starts friday", "freeze the deploy now")
	s.session("dev", "deploy after the freeze", "a deploy freeze, again")
	ix := s.index()
	user := index.Filter{Roles: []string{"user"}}
	for _, tc := range []struct {
		query string
		f     index.Filter
		want  []string
	}{
		{`"deploy freeze"`, user, []string{"dev#3", "ops#1"}},
		{`"freeze deploy"`, user, nil},
		{`"deploy freeze" -friday`, user, []string{"dev#3"}},
		{`deploy -"deploy freeze"`, user, []string{"dev#1", "ops#3"}},
		{`"deploy freeze"`, index.Filter{Roles: []string{"user"}, Sessions: []string{"ops"}}, []string{"ops#1"}},
		{`friday`, index.Filter{Roles: []string{"assistant"}}, []string{"ops#2"}},
		{`friday`, index.Filter{Since: time.Now().Add(time.Hour)}, nil},
		{`friday`, index.Filter{Since: time.Now().Add(-time.Hour), Roles: []string{"user"}}, []string{"ops#1"}},
		{`friday`, index.Filter{Sessions: []string{"nobody"}}, nil},
	} {
		hits, _ := s.find(ix, tc.query, tc.f)
		got := where(hits)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q %+v: %v, want %v", tc.query, tc.f, got, tc.want)
		}
	}
}

// TestOrphanJournalNamedByLastSession: once its session is deleted, a
// journal's hits name that session, marked deleted.
func TestOrphanJournalNamedByLastSession(t *testing.T) {
	s := newStore(t, "")
	e := s.session("gone", "a note about wombats")
	ix := s.index()
	s.find(ix, "wombats", index.Filter{})
	if _, err := e.Delete("gone"); err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*index.Index{ix, s.index()} {
		hits, _ := s.find(ix, "wombats", index.Filter{Roles: []string{"user"}})
		if len(hits) != 1 || hits[0].Session != "gone" || !hits[0].Deleted || hits[0].Journal == "" {
			t.Fatalf("hits %+v, want gone#1 marked deleted", hits)
		}
	}
	hits, _ := s.find(ix, "wombats", index.Filter{Sessions: []string{"gone"}, Roles: []string{"user"}})
	if len(hits) != 1 {
		t.Fatalf("--session gone: %v, want the deleted session's hit", where(hits))
	}
}

// TestManyUpdatesMergedSameHits: many small updates are merged into
// fewer segments, a deleted session's documents are dropped on the way,
// and the hits stay those of a fresh build.
func TestManyUpdatesMergedSameHits(t *testing.T) {
	defer index.SetLogMaxEntries(2)() // a manifest, folding the log into a segment, every third update
	s := newStore(t, "")
	e := s.session("long", "first words about otters")
	other := s.session("short", "otters elsewhere")
	ix := s.index()
	for i := range 20 {
		s.turn(e, "turn about otters and seals number "+string(rune('a'+i)))
		if i == 10 {
			if _, err := other.Delete("short"); err != nil {
				t.Fatal(err)
			}
		}
		s.find(ix, "otters", index.Filter{})
	}
	ix.WaitMerges()
	if n := len(segments(t, s)); n >= 8 {
		t.Errorf("%d segments after 21 updates and 7 folds of the log: nothing was merged", n)
	}
	got, _ := s.find(ix, "otters seals", index.Filter{})
	ix.WaitMerges()
	if err := removeIndex(s); err != nil {
		t.Fatal(err)
	}
	want, _ := s.find(s.index(), "otters seals", index.Filter{})
	if !slices.Equal(where(got), where(want)) {
		t.Errorf("merged index: %v\nfresh build:  %v", where(got), where(want))
	}
}

// TestTheBestHitsAreTheFirstOfAll: a search for the best few, which
// passes over documents that cannot reach them, finds the first hits of
// the search for all, for a word, a phrase, and a phrase with an
// exclusion. Its words are in enough messages that their lists have
// many blocks, of messages of many lengths: the blocks are passed over by
// the bounds of their skip entries.
func TestTheBestHitsAreTheFirstOfAll(t *testing.T) {
	s := newStore(t, "")
	for i := range 30 {
		var prompts []string
		for j := range 24 {
			p := strings.Repeat("deploy freeze ", 1+(i*j)%5) + strings.Repeat("filler words ", 1+(i+3*j)%29)
			if (i+j)%3 == 0 {
				p += " friday"
			}
			prompts = append(prompts, p)
		}
		s.session(fmt.Sprintf("s%02d", i), prompts...)
	}
	ix := s.index()
	for _, q := range []string{"deploy", `"deploy freeze"`, `"freeze deploy"`, `"deploy freeze" -friday`, "filler freeze",
		"deploy freeze -friday", `friday -"freeze deploy"`, `words -"filler words" -deploy`, `"freeze filler" friday`} {
		all, _, err := ix.Find(q, index.Filter{}, 0)
		if err != nil || len(all) < 5 && !strings.HasPrefix(q, "words -") {
			t.Fatalf("%s: %d hits, %v", q, len(all), err)
		}
		best, _, err := ix.Find(q, index.Filter{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(all[:min(5, len(all))], best); diff != "" {
			t.Errorf("%s: the best 5 (-first of all +best):\n%s", q, diff)
		}
	}
}
