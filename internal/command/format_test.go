package command

import (
	"strings"
	"testing"
	"time"

	"github.com/rivo/uniseg"
	"golang.org/x/text/language"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/session"
)

// cellWidth agrees with uniseg.StringWidth: ASCII, accents, CJK, emoji
// (with modifiers and joiners), combining marks, control bytes, an
// ellipsis.
func TestCellWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{"", "demo-2", "Sessão de café", "会话 列表", "👍🏽 ok", "👩‍💻 code", "e\u0301", "a\tb", "turn 0: a long prompt…", "한국어", "turn 0: a long prompt, as pasted logs make them; a l…", "abe\u0301 x", "ok 👍🏽", "x\x1by"} {
		if got, want := cellWidth(s), uniseg.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, StringWidth = %d", s, got, want)
		}
	}
}

// With a Width, every row fits in it: titles are cut by display cells,
// with "…"; without one, they are kept whole.
func TestListTitlesFitTheWidth(t *testing.T) {
	now := time.Now()
	list := []session.Header{
		{Name: "ops", Messages: 6, UpdatedAt: now, Title: "we discuss the deploy freeze on friday and on monday"},
		{Name: "会话", Messages: 2, UpdatedAt: now, Title: "会话列表会话列表会话列表会话列表会话列表会话列表"},
		{Name: "demo", Messages: 8, UpdatedAt: now, Title: "hello"},
	}
	var b strings.Builder
	WriteListAs(&b, list, "", ListFormat{Now: now, Width: 50})
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if w := uniseg.StringWidth(line); w > 50 {
			t.Errorf("%d cells: %q", w, line)
		}
	}
	if !strings.Contains(b.String(), "…") || !strings.Contains(b.String(), "hello\n") {
		t.Errorf("titles not cut, or a short one cut:\n%s", b.String())
	}
	b.Reset()
	WriteListAs(&b, list, "", ListFormat{Now: now})
	if !strings.Contains(b.String(), "on monday") {
		t.Errorf("cut without a width:\n%s", b.String())
	}
}

// On a terminal the UPDATED column is an age, in the list's language.
func TestListAgesSpeakTheLanguage(t *testing.T) {
	now := time.Now()
	list := []session.Header{{Name: "ops", Messages: 6, UpdatedAt: now.Add(-3 * time.Hour), Title: "t"}}
	for tag, want := range map[language.Tag]string{i18n.Portuguese: "há 3 horas", i18n.English: "3 hours ago"} {
		var b strings.Builder
		WriteListAs(&b, list, "", ListFormat{Now: now, Lang: i18n.New(tag)})
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: %q missing from\n%s", tag, want, b.String())
		}
	}
}
