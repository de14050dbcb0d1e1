package session

import (
	"strings"
	"testing"
	"time"
)

// shape draws roots as "name(child(grandchild),child)" for comparison.
func shape(nodes []*TreeNode) string {
	var parts []string
	for _, n := range nodes {
		s := n.Header.Name
		if n.ParentGone {
			s += "!"
		}
		if len(n.Children) > 0 {
			s += "(" + shape(n.Children) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

func TestTreeFindsParentsByJournalAndName(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 9, m, 0, 0, time.UTC) }
	fork := func(parent, journal string, m int) *Lineage {
		return &Lineage{Parent: parent, ParentTranscript: journal, At: 2, Kind: LineageFork, CreatedAt: at(m)}
	}
	list := []Header{
		{Name: "main", TranscriptID: "j-main", UpdatedAt: at(50)}, // renamed from "src" since the forks
		{Name: "b", TranscriptID: "j-b", UpdatedAt: at(10), Lineage: fork("src", "j-main", 2)},
		{Name: "a", TranscriptID: "j-a", UpdatedAt: at(11), Lineage: fork("src", "j-main", 1)},
		{Name: "a2", TranscriptID: "j-a2", UpdatedAt: at(12), Lineage: fork("a", "j-a", 3)},
		// An MCP mirror and the session attached from it share a journal:
		// the session's own journal is never its parent.
		{Name: "mcp-1", TranscriptID: "j-m", UpdatedAt: at(5)},
		{Name: "named", TranscriptID: "j-m", UpdatedAt: at(6), Lineage: &Lineage{Parent: "mcp-1", ParentTranscript: "j-m", Kind: LineageAttach, CreatedAt: at(4)}},
		// Journal off: by name only; a name reused by an unrelated session
		// with another journal is no parent.
		{Name: "nojournal", UpdatedAt: at(7), Lineage: fork("main", "", 8)},
		{Name: "orphan", UpdatedAt: at(8), Lineage: fork("gone", "j-gone", 9)},
		{Name: "reused", TranscriptID: "j-new", UpdatedAt: at(9), Lineage: fork("main", "j-other", 9)},
		// A cycle made by hand is cut at its first name.
		{Name: "x", UpdatedAt: at(1), Lineage: fork("y", "", 1)},
		{Name: "y", UpdatedAt: at(2), Lineage: fork("x", "", 1)},
	}
	got := shape(Tree(list))
	want := "main(a(a2),b,nojournal),reused!,orphan!,mcp-1(named),x(y)"
	if got != want {
		t.Fatalf("tree\n got %s\nwant %s", got, want)
	}
	if f := Family(Tree(list), "a2"); f == nil || f.Header.Name != "main" {
		t.Fatalf("the family of a2: %+v", f)
	}
	if Family(Tree(list), "nope") != nil {
		t.Fatal("a missing name has no family")
	}
}
