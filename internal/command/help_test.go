package command

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestHelpFitsEightyColumns: no /help line is wider than 80 columns, in
// either language, and wrapping never cuts a flag or a usage apart.
func TestHelpFitsEightyColumns(t *testing.T) {
	for _, lang := range []*i18n.Printer{i18n.New(i18n.English), i18n.New(i18n.Portuguese)} {
		env, out := resumeEnv(t)
		env.Lang = lang
		if err := Dispatch(context.Background(), env, "/help"); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s: a /help line of %d columns: %q", lang.Tag(), n, line)
			}
			if strings.HasSuffix(line, "-") || strings.HasPrefix(strings.TrimSpace(line), "-yes") {
				t.Errorf("%s: a word cut at its hyphen: %q", lang.Tag(), line)
			}
		}
		for _, c := range Commands() {
			if !strings.Contains(text, "  "+strings.Fields(c.Usage)[0]) {
				t.Errorf("%s: /help lost %s", lang.Tag(), c.Usage)
			}
		}
	}
	if got := strings.Join(wordWrap("a bb ccc --yes dd", 6), "|"); got != "a bb|ccc|--yes|dd" {
		t.Errorf("wordWrap: %q", got)
	}
}
