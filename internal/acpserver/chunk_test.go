package acpserver

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A text too long for one notification is shown cut between whole
// characters: a ZWJ family, a flag, a letter and its combining accent.
func TestShownCutsOnlyBetweenCharacters(t *testing.T) { // case enc-1
	unit := "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466" + "\U0001F1E7\U0001F1F7" + "e\u0301"
	for pad := range 8 {
		s := strings.Repeat("x", pad) + strings.Repeat(unit, ChunkBytes/len(unit)+40)
		got := shown(s)
		head, _, ok := strings.Cut(got, "\n… (")
		if !ok || !utf8.ValidString(got) || len(head) > ChunkBytes || !strings.HasPrefix(s, head) {
			t.Fatalf("pad %d: shown %d bytes, valid %v", pad, len(head), utf8.ValidString(got))
		}
		if !(strings.HasSuffix(head, "\U0001F466") || strings.HasSuffix(head, "\U0001F1F7") || strings.HasSuffix(head, "\u0301")) {
			t.Fatalf("pad %d: cut inside a character: ends %q", pad, head[len(head)-8:])
		}
	}
	if shown("short") != "short" {
		t.Fatal("a short text must pass unchanged")
	}
}
