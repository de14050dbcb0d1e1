package search

import (
	"slices"
	"testing"
)

func tokenList(s string) []string {
	var out []string
	tokens(s, func(b, e int) bool {
		out = append(out, s[b:e])
		return true
	})
	return out
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"!!! ... ---", nil},
		{"Hello, world!", []string{"Hello", "world"}},
		{"snake_case v1.2 don't", []string{"snake", "case", "v1", "2", "don", "t"}},
		{"ação e\u0301 БД", []string{"ação", "e\u0301", "БД"}},
		{"DB数据库ok", []string{"DB", "数", "据", "库", "ok"}},
		{"データ", []string{"デ", "ー", "タ"}},
		{"a😀b 👨‍👩‍👧‍👦 🇵🇹x", []string{"a", "b", "x"}},
		{"x\u0301", []string{"x\u0301"}},
		{"\u0301", []string{"\u0301"}},
		{"٣٤ १२", []string{"٣٤", "१२"}},
	} {
		if got := tokenList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFold(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"бд", "БД"},
		{"ärger", "ÄRGER"},
		{"acao", "ação"},
		{"acao", "AÇÃO"},
		{"acao", "ac\u0327a\u0303o"}, // decomposed input
		{"strasse", "STRASSE"},
		{"strasse", "straße"},
		{"STRASSE", "STRAẞE"},
		{"σοφος", "ΣΟΦΌΣ"},
		{"σοφος", "σοφός"}, // final sigma
		{"οδυσσευς", "ὈΔΥΣΣΕΎΣ"},
		{"istanbul", "İSTANBUL"},
		{"kelvin", "\u212Aelvin"}, // Kelvin sign
		{"file", "ﬁle"},
	} {
		if fa, fb := fold(tc.a), fold(tc.b); fa != fb {
			t.Errorf("fold(%q) = %q, fold(%q) = %q; want equal", tc.a, fa, tc.b, fb)
		}
	}
	if got := fold("\u0301"); got != "" {
		t.Errorf("fold(mark) = %q, want empty", got)
	}
	if got := fold("Hello"); got != "hello" {
		t.Errorf("fold(Hello) = %q", got)
	}
}

func TestQueryTerms(t *testing.T) {
	got := queryTerms("Foo, foo FOO bar — Straße strasse")
	if want := []string{"foo", "bar", "strasse"}; !slices.Equal(got, want) {
		t.Errorf("queryTerms = %q, want %q", got, want)
	}
}

func TestTokensUnspacedScripts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"กขค", []string{"กข", "ขค"}},
		{"ก", []string{"ก"}},
		{"aกขb", []string{"a", "กข", "b"}},
		{"ok ที่นี่ x", []string{"ok", "ที่นี่", "x"}},
	} {
		if got := tokenList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
