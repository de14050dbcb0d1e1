package search

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// graphemes splits s into extended grapheme clusters.
func graphemes(s string) []string {
	var out []string
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		out = append(out, g.Str())
	}
	return out
}

// checkExcerpt fails unless got is a window of whole characters of text,
// with "…" exactly where text was cut, at most maxChars characters long.
// Below 3 characters there is no room for the marks and none are expected.
func checkExcerpt(t *testing.T, text, got string, maxChars int) {
	t.Helper()
	if n := len(graphemes(got)); n > maxChars {
		t.Fatalf("excerpt %q has %d characters, max %d", got, n, maxChars)
	}
	if !utf8.ValidString(got) {
		t.Fatalf("excerpt %q is not valid UTF-8", got)
	}
	body, left := strings.CutPrefix(got, "…")
	body, right := strings.CutSuffix(body, "…")
	cs := graphemes(text)
	for a := range len(cs) + 1 {
		for z := a; z <= len(cs); z++ {
			marked := (a > 0) == left && (z < len(cs)) == right
			if strings.Join(cs[a:z], "") == body && (marked || maxChars < 3 && !left && !right) {
				return
			}
		}
	}
	t.Fatalf("excerpt %q is not a whole-character window of %q with marks where cut", got, text)
}

// emoji are single characters of several code points each.
var emoji = []string{
	"👨‍👩‍👧‍👦", "🇵🇹", "🇯🇵", "👍🏽", "🏳️‍🌈", "❤️", "🧑🏿‍💻", "👩‍❤️‍💋‍👨", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
}

func TestSnippetEmoji(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString(emoji[i%len(emoji)])
	}
	pad := b.String()
	text := pad + " the needle " + pad
	for maxChars := 1; maxChars <= 100; maxChars++ {
		got := Snippet(text, "NEEDLE", maxChars)
		checkExcerpt(t, text, got, maxChars)
		if maxChars >= 16 && !strings.Contains(got, "needle") {
			t.Errorf("Snippet(%d) = %q lacks the match", maxChars, got)
		}
	}
	if got := Snippet(text, "absent", 12); !strings.HasPrefix(got, emoji[0]) || !strings.HasSuffix(got, "…") {
		t.Errorf("no match: %q, want the start of the text", got)
	}
}

func TestSnippetShowsOriginal(t *testing.T) {
	text := strings.Repeat("Lorem ipsum dolor sit amet. ", 10) + "Die HAUPTSTRAßE ist gesperrt.\nUmleitung folgt. " + strings.Repeat("Nulla facilisi. ", 10)
	got := Snippet(text, "hauptstrasse", 60)
	if !strings.Contains(got, "HAUPTSTRAßE ist gesperrt. Umleitung") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("Snippet = %q", got)
	}
	checkExcerpt(t, strings.ReplaceAll(text, "\n", " "), got, 60)
	if got := Snippet("short ação", "acao", 80); got != "short ação" {
		t.Errorf("short text: %q", got)
	}
	if got := Snippet("anything", "x", 0); got != "" {
		t.Errorf("maxChars 0: %q", got)
	}
}

func TestSnippetFirstMatch(t *testing.T) {
	text := strings.Repeat("x ", 100) + "beta " + strings.Repeat("y ", 100) + "alpha"
	if got := Snippet(text, "alpha beta", 20); !strings.Contains(got, "beta") {
		t.Errorf("Snippet = %q, want the first match (beta)", got)
	}
	end := Snippet(text, "alpha", 20)
	if !strings.HasSuffix(end, "alpha") || !strings.HasPrefix(end, "…") || len(graphemes(end)) != 20 {
		t.Errorf("match at the end: %q, want 20 characters ending with it", end)
	}
}

// TestSnippetRandom checks whole-character windows over random texts mixing
// scripts, emoji, combining marks and line breaks, for every width.
func TestSnippetRandom(t *testing.T) {
	parts := append([]string{"word", "Ärger", "e\u0301\u0301", "БД", "数据", " ", " ", "\r\n", "\t", "ก่", "한국"}, emoji...)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		text := b.String()
		for _, q := range []string{"word", "бд", "据", "zzz"} {
			maxChars := 1 + rng.IntN(30)
			checkExcerpt(t, oneLine(text), Snippet(text, q, maxChars), maxChars)
		}
	}
}

// randomText joins n random parts: ASCII words, emoji, flags (whose pairing
// depends on where segmentation starts), CR LF, combining marks, Hangul.
func randomText(rng *rand.Rand, n int) string {
	parts := append([]string{"word", " ", " ", ", ", "\r\n", "\n", "\r", "x\u0301", "\u0301", "🇵", "🇹", "한", "ᄀ", "ᅡ", "БД", "数据", "ก่"}, emoji...)
	var b strings.Builder
	for range n {
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return b.String()
}

func TestBoundaryBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		text := randomText(rng, 1+rng.IntN(80))
		bounds := map[int]bool{0: true}
		off := 0
		for _, c := range graphemes(text) {
			off += len(c)
			bounds[off] = true
		}
		for p := range len(text) {
			if i := boundaryBefore(text, p); i > p || !bounds[i] {
				t.Fatalf("boundaryBefore(%q, %d) = %d, not a character boundary at or before it", text, p, i)
			}
		}
	}
}

// TestExcerptLongText checks that starting segmentation near the match
// gives the same excerpt as segmenting the whole text.
func TestExcerptLongText(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		text := randomText(rng, 200+rng.IntN(2000))
		at := rng.IntN(len(text))
		for !utf8.RuneStart(text[at]) {
			at--
		}
		maxChars := 1 + rng.IntN(100)
		want, _ := excerptFrom(text, 0, at, maxChars)
		if got := excerpt(text, at, maxChars); got != want {
			t.Fatalf("excerpt(…, %d, %d) = %q, want %q", at, maxChars, got, want)
		}
	}
}
