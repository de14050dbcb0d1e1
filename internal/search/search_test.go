package search

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

func newIndex(texts ...string) *Index {
	ix := NewIndex()
	for i, s := range texts {
		ix.Add(Doc{Source: "s", Position: i + 1, Role: "user", Text: s})
	}
	return ix
}

// positions returns the positions of hits, in order.
func positions(hits []Hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.Doc.Position
	}
	return out
}

func search(t *testing.T, ix *Index, q string, limit int) []Hit {
	t.Helper()
	hits, err := ix.Search(q, limit)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

func TestRankTermFrequency(t *testing.T) {
	ix := newIndex(
		"the cat sat on the mat with the dog",
		"zebra the cat and the dog",
		"zebra zebra zebra the cat and the dog",
		"the dog barked at the cat",
	)
	got := positions(search(t, ix, "zebra", 10))
	if fmt.Sprint(got) != "[3 2]" {
		t.Errorf("zebra ranks %v, want [3 2]", got)
	}
}

func TestRankLengthNormalisation(t *testing.T) {
	long := "zebra " + strings.Repeat("filler words about nothing much ", 20)
	ix := newIndex(long, "zebra crossing", "no match here", "another one")
	hits := search(t, ix, "zebra", 10)
	if got := positions(hits); fmt.Sprint(got) != "[2 1]" {
		t.Fatalf("zebra ranks %v, want [2 1] (shorter document first)", got)
	}
	if hits[0].Score <= hits[1].Score {
		t.Errorf("scores %v, %v not decreasing", hits[0].Score, hits[1].Score)
	}
}

func TestRankRareTermAndCoverage(t *testing.T) {
	ix := newIndex(
		"common common common",
		"common rare",
		"common",
		"common words",
		"rare",
	)
	got := positions(search(t, ix, "common rare", 10))
	if got[0] != 2 {
		t.Errorf("ranks %v, want the document with both terms first", got)
	}
	if got[1] != 5 {
		t.Errorf("ranks %v, want the rare-term document second", got)
	}
}

func TestBM25Score(t *testing.T) {
	// N=2, df=1, |D|=2, avgdl=1.5, tf=1.
	ix := newIndex("alpha beta", "gamma")
	hits := search(t, ix, "alpha", 1)
	idf := 0.6931471805599453 // ln(1 + (2-1+0.5)/(1+0.5)) = ln 2
	norm := 1.2 * (1 - 0.75 + 0.75*2/1.5)
	want := idf * 2.2 / (1 + norm)
	if len(hits) != 1 || fmt.Sprintf("%.12f", hits[0].Score) != fmt.Sprintf("%.12f", want) {
		t.Errorf("hits %+v, want score %v", hits, want)
	}
}

func TestFoldingAcrossScripts(t *testing.T) {
	ix := newIndex(
		"Миграция БД завершена",
		"So ein ÄRGER mit dem Build",
		"A ação foi concluída",
		"Wohnt in der HAUPTSTRASSE",
		"ΣΟΦΌΣ ΆΝΘΡΩΠΟΣ",
		"die Hauptstraße ist gesperrt",
		"日本語のデータベース",
	)
	for _, tc := range []struct {
		q    string
		want string
	}{
		{"бд", "[1]"},
		{"ärger", "[2]"},
		{"Arger", "[2]"},
		{"acao", "[3]"},
		{"concluida", "[3]"},
		{"hauptstraße", "[4 6]"},
		{"HAUPTSTRASSE", "[4 6]"},
		{"σοφος", "[5]"},
		{"άνθρωπος", "[5]"},
		{"データ", "[7]"},
	} {
		if got := fmt.Sprint(positions(search(t, ix, tc.q, 10))); got != tc.want {
			t.Errorf("Search(%q) = %s, want %s", tc.q, got, tc.want)
		}
	}
}

func TestTieOrder(t *testing.T) {
	ix := NewIndex()
	ix.Add(
		Doc{Source: "b", Position: 2, Text: "same words"},
		Doc{Source: "a", Position: 9, Text: "same words"},
		Doc{Source: "b", Position: 1, Text: "same words"},
		Doc{Source: "a", Position: 3, Text: "same words"},
	)
	for _, limit := range []int{0, 2, 3, 4, 10} {
		var got []string
		for _, h := range search(t, ix, "words", limit) {
			got = append(got, fmt.Sprintf("%s%d", h.Doc.Source, h.Doc.Position))
		}
		want := []string{"a3", "a9", "b1", "b2"}
		if limit > 0 && limit < len(want) {
			want = want[:limit]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("limit %d: %v, want %v", limit, got, want)
		}
	}
}

func TestEmptyQuery(t *testing.T) {
	ix := newIndex("hello")
	for _, q := range []string{"", "   ", "?!…—", "😀 🇵🇹"} {
		if _, err := ix.Search(q, 10); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("Search(%q) error %v, want ErrEmptyQuery", q, err)
		}
	}
	if hits := search(t, ix, "absent", 10); len(hits) != 0 {
		t.Errorf("absent term: %v", hits)
	}
	if hits := search(t, NewIndex(), "hello", 10); len(hits) != 0 {
		t.Errorf("empty index: %v", hits)
	}
}

func TestLimit(t *testing.T) {
	var texts []string
	for i := range 50 {
		texts = append(texts, strings.Repeat("word ", i+1)+"end")
	}
	ix := newIndex(texts...)
	if ix.Len() != 50 {
		t.Fatalf("Len = %d", ix.Len())
	}
	for _, limit := range []int{1, 7, 50, 100, 0, -1} {
		hits := search(t, ix, "word", limit)
		want := min(limit, 50)
		if limit < 1 {
			want = 50
		}
		if len(hits) != want {
			t.Errorf("limit %d: %d hits, want %d", limit, len(hits), want)
		}
		all := search(t, ix, "word", 0)
		for i := range hits {
			if hits[i].Doc != all[i].Doc || hits[i].Score != all[i].Score {
				t.Errorf("limit %d: hit %d differs from the unlimited ranking", limit, i)
				break
			}
		}
	}
}

func TestHitSnippetAndInvalidUTF8(t *testing.T) {
	ix := newIndex("bad \xff byte then NEEDLE here")
	hits := search(t, ix, "needle", 1)
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "NEEDLE") || strings.Contains(hits[0].Snippet, "\xff") {
		t.Errorf("hits = %+v", hits)
	}
}

func TestMessageDocs(t *testing.T) {
	msgs := []message.Message{
		{Role: message.RoleUser, Content: "read main.go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "a", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		{Role: message.RoleTool, ToolCallID: "a", Content: ""},
		{Role: message.RoleAssistant, Content: "done"},
	}
	docs := MessageDocs("sess", msgs)
	if len(docs) != 3 || docs[1].Position != 2 || docs[2].Position != 4 || docs[1].Role != "assistant" {
		t.Fatalf("docs = %+v", docs)
	}
	ix := NewIndex()
	ix.Add(docs...)
	if got := positions(search(t, ix, "read_file", 10)); fmt.Sprint(got) != "[2 1]" {
		t.Errorf("read_file ranks %v", got)
	}
}
