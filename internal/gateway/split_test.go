package gateway

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitKeepsEveryCharacterWithinTheLimit(t *testing.T) {
	text := strings.Repeat("word ", 300) + "\n\n" + strings.Repeat("é😀", 700) + "\n" + strings.Repeat("x", 2500)
	parts := Split(text, 1000)
	if len(parts) < 4 {
		t.Fatalf("%d parts", len(parts))
	}
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n > 1000 || !utf8.ValidString(p) {
			t.Fatalf("part %d: %d characters, valid %v", i, n, utf8.ValidString(p))
		}
	}
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if squash(strings.Join(parts, "")) != squash(text) {
		t.Fatal("characters were lost or added")
	}
	if !strings.HasSuffix(parts[0], "word") {
		t.Fatalf("first part ends %q: not cut at a space", parts[0][len(parts[0])-10:])
	}
}

func TestSplitClosesAndReopensACutFence(t *testing.T) {
	code := "```go\n" + strings.Repeat("fmt.Println(1)\n", 100) + "```"
	parts := Split("intro\n\n"+code, 500)
	for i, p := range parts {
		if strings.Count(p, "```")%2 != 0 {
			t.Fatalf("part %d has an unclosed fence:\n%s", i, p)
		}
		if i > 0 && !strings.HasPrefix(p, "```go\n") {
			t.Fatalf("part %d does not reopen the fence: %q", i, p[:20])
		}
	}
}

func TestSplitShortAndEmpty(t *testing.T) {
	if got := Split("hi", 4096); len(got) != 1 || got[0] != "hi" {
		t.Fatalf("%q", got)
	}
	if got := Split("\n\n", 4096); len(got) != 0 {
		t.Fatalf("%q", got)
	}
}

func TestRedact(t *testing.T) {
	base := errors.New(`Post "https://api.test/bot123:SECRET/getMe": dial tcp: refused`)
	err := Redact(base, "123:SECRET")
	if strings.Contains(err.Error(), "SECRET") || !errors.Is(err, base) {
		t.Fatalf("%v", err)
	}
	if Redact(nil, "x") != nil {
		t.Fatal("nil became an error")
	}
}

func TestSplitCutsOnlyBetweenCharacters(t *testing.T) { // case enc-1
	unit := "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466" + "\U0001F1E7\U0001F1F7" + "e\u0301" // ZWJ family, flag, e + combining acute
	text := strings.Repeat(unit, 40)
	for limit := 20; limit <= 120; limit++ {
		parts := Split(text, limit)
		if strings.Join(parts, "") != text {
			t.Fatalf("limit %d: characters were lost or added", limit)
		}
		for i, p := range parts {
			if n := utf8.RuneCountInString(p); n > limit || !utf8.ValidString(p) {
				t.Fatalf("limit %d, part %d: %d characters, valid %v", limit, i, n, utf8.ValidString(p))
			}
			if i < len(parts)-1 && !(strings.HasSuffix(p, "\U0001F466") || strings.HasSuffix(p, "\U0001F1F7") || strings.HasSuffix(p, "\u0301")) {
				t.Fatalf("limit %d: part %d is cut inside a character: it ends %q", limit, i, p[len(p)-8:])
			}
		}
	}
	// One character longer than the limit is still cut to the limit.
	for _, p := range Split(strings.Repeat(unit[:25], 3), 4) {
		if utf8.RuneCountInString(p) > 4 {
			t.Fatalf("part %q over the limit", p)
		}
	}
}
