package i18n

import (
	"strings"
	"testing"
)

func TestSingularsAreCatalogKeysWithTheirArguments(t *testing.T) {
	inCatalog := map[string]bool{}
	for _, m := range catalogue() {
		inCatalog[m.en] = true
	}
	for _, s := range singulars {
		if !inCatalog[s.key] {
			t.Errorf("%q counts in the singular but is no catalog key", s.key)
		}
		args := argsFor(s.key)
		if s.arg < 1 || s.arg > len(args) {
			t.Errorf("%q: argument %d is not its count", s.key, s.arg)
			continue
		}
		args[s.arg-1] = 1
		for _, p := range []*Printer{New(English), New(Portuguese)} {
			out := p.Sprintf(s.key, args...)
			if strings.Contains(out, "%!") || strings.Contains(out, "messages") || strings.Contains(out, "mensagens") {
				t.Errorf("%q counting 1 in %s: %q", s.key, p.Tag(), out)
			}
		}
		if s.en == s.key {
			t.Errorf("%q: its singular is itself", s.key)
		}
	}
}

func TestCountsAreSingularForOne(t *testing.T) {
	en, pt := New(English), New(Portuguese)
	key := "Session %s · %d messages · updated %s\n"
	for _, c := range []struct {
		p    *Printer
		n    int
		want string
	}{
		{en, 1, "Session x · 1 message · updated t\n"},
		{en, 0, "Session x · 0 messages · updated t\n"},
		{en, 2, "Session x · 2 messages · updated t\n"},
		{nil, 1, "Session x · 1 message · updated t\n"},
		// CLDR's pt (Brazilian Portuguese): one is i = 0..1.
		{pt, 0, "Sessão x · 0 mensagem · atualizada em t\n"},
		{pt, 1, "Sessão x · 1 mensagem · atualizada em t\n"},
		{pt, 2, "Sessão x · 2 mensagens · atualizada em t\n"},
		{pt, 1000, "Sessão x · 1.000 mensagens · atualizada em t\n"},
	} {
		if got := c.p.Sprintf(key, "x", c.n, "t"); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.p.Tag(), c.n, got, c.want)
		}
	}
	if got := en.Sprintf("Loaded session %q (%d messages).\n", "x", 1); got != "Loaded session \"x\" (1 message).\n" {
		t.Errorf("%q", got)
	}
}

func TestTheForkBoxAlignsItsLabels(t *testing.T) {
	pt := New(Portuguese)
	for _, out := range []string{
		pt.Sprintf("Forked %q into %q (%d messages).\n", "pt1", "pt2", 3),
		pt.Sprintf("Forked %q into %q (%d messages).\n", "pt1", "pt2", 1),
		pt.Sprintf("Forked %q into %q (%d messages); now bound to %[2]q, the original is untouched.\n", "pt1", "pt2", 3),
		pt.Sprintf("Forked the conversation into %q (%d messages); now bound to it.\n", "pt2", 3),
	} {
		lines := strings.Split(out, "\n")
		from, to := strings.Index(lines[1], "De:"), strings.Index(lines[2], "Para:")
		if from < 0 || to < 0 || strings.IndexFunc(lines[1][from+3:], notSpace)+from+3 != strings.IndexFunc(lines[2][to+5:], notSpace)+to+5 {
			t.Errorf("labels not aligned:\n%s", out)
		}
	}
}

func notSpace(r rune) bool { return r != ' ' }
