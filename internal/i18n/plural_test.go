package i18n

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestCountedTextsCompile(t *testing.T) {
	inCatalog := map[string]bool{}
	for _, m := range append(catalogue(), textMessages()...) {
		inCatalog[m.en] = true
		if hasChoice(m.pt) {
			if _, err := compileCounted(m.pt); err != nil {
				t.Errorf("%q: %v", m.en, err)
			}
		}
	}
	seen := map[string]bool{}
	for _, s := range englishCounts {
		c, err := compileCounted(s)
		if err != nil {
			t.Error(err)
			continue
		}
		if !inCatalog[c.key] {
			t.Errorf("%q counts, but %q is no catalog key", s, c.key)
		}
		if seen[c.key] {
			t.Errorf("%q counts twice", c.key)
		}
		seen[c.key] = true
	}
}

// pluralish is a count followed by a word in the plural, or words that
// change with a count: what a counted message says.
var pluralish = regexp.MustCompile(`%(?:\[\d\])?d(?: [a-zA-Z-]+){0,2}? (?:[a-zA-Z-]+[^'aiu]s|msgs|ids)\b`)

// notCounts are the catalog's messages whose %d is followed by a plural
// that no count of one meets: a number of a thing, a total of several.
var notCounts = map[string]bool{
	"Forked messages 1-%d into %q; now bound to it.\n": true,
	"[pasted %d lines]": true, // a paste of one line is counted in characters
	"too long for the file system (%d bytes in UTF-8)": true, // hundreds
	"memory: a note holds at most %d bytes (this one has %d); a context keeps longer text (/context create, or `chatcli context create`)": true,
	"%s has %d bytes, over what @file takes; attach text with /context create instead":                                                    true, // megabytes
	"%s has %d bytes, over the %d @file inlines; attach it with /context create instead":                                                  true,
}

// TestEveryCountIsSaidInTheSingularForOne fails when a catalog message
// whose English counts something in the plural has no singular: each
// message that counts is one of englishCounts.
func TestEveryCountIsSaidInTheSingularForOne(t *testing.T) {
	c := englishCounted()
	for _, m := range append(catalogue(), textMessages()...) {
		if pluralish.MatchString(m.en) && !c.keys[m.en] && !notCounts[m.en] {
			t.Errorf("%q counts, but has no singular: write its English with choices ({file|files}) in englishCounts, and its Portuguese with choices too", m.en)
		}
	}
}

// TestNoTextSaysBothForms fails on a catalog text that writes a noun's
// plural as a suffix in parentheses, "file(s)", "sessão(ões)": a count
// picks one form.
func TestNoTextSaysBothForms(t *testing.T) {
	both := regexp.MustCompile(`\p{L}\((?:s|es|ns|is|ões|ães|m|ram|uderam|as|os)\)`)
	for _, m := range append(catalogue(), textMessages()...) {
		for _, s := range []string{m.en, m.pt} {
			if both.MatchString(strings.ReplaceAll(s, "http(s)", "http")) { // http(s) is a URL's scheme
				t.Errorf("%q says both forms: %q", m.en, s)
			}
		}
	}
}

// TestEachCountedMessageAt012 says each counted message with each of its
// counts 0, 1 and 2 in both languages: the singular forms of English at 1
// only, of Portuguese at 0 and 1, never a verb left unformatted or a
// choice unresolved, and English at 2 exactly fmt's of the key.
func TestEachCountedMessageAt012(t *testing.T) {
	en, pt := New(English), New(Portuguese)
	keys := map[string]bool{}
	for k := range englishCounted().keys {
		keys[k] = true
	}
	for k := range portugueseCounted().keys {
		keys[k] = true
	}
	if len(keys) < 60 {
		t.Fatalf("only %d counted messages", len(keys))
	}
	for key := range keys {
		base := argsFor(key)
		for i, m := range regexp.MustCompile(`%(?:\[\d+\])?([a-z])`).FindAllStringSubmatch(key, -1) {
			if m[1] == "w" && i < len(base) {
				base[i] = errors.New("boom") // the keys that wrap number their arguments in order
			}
		}
		for _, n := range []int{0, 1, 2} {
			args := append([]any(nil), base...)
			for i, a := range args {
				if _, ok := a.(int); ok {
					args[i] = n
				}
			}
			for _, p := range []*Printer{en, pt} {
				out := p.Sprintf(key, args...)
				if strings.Contains(out, "%!") || strings.Contains(out, "${") || hasChoice(out) {
					t.Errorf("%s %q at %d: %q", p.Tag(), key, n, out)
				}
			}
			if n == 2 {
				if got, want := en.Sprintf(key, args...), fmt.Sprintf(errorVerbs(key), args...); got != want {
					t.Errorf("%q at 2: %q, want %q", key, got, want)
				}
			}
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
		{en, 1000, "Session x · 1000 messages · updated t\n"},
		{nil, 1, "Session x · 1 message · updated t\n"},
		// CLDR's pt (Brazilian Portuguese): one is i = 0..1.
		{pt, 0, "Sessão x · 0 mensagens · atualizada em t\n"},
		{pt, 1, "Sessão x · 1 mensagem · atualizada em t\n"},
		{pt, 2, "Sessão x · 2 mensagens · atualizada em t\n"},
		{pt, 1000, "Sessão x · 1.000 mensagens · atualizada em t\n"},
		{pt.Plain(), 0, "Sessão x · 0 mensagens · atualizada em t\n"},
		{pt.Plain(), 1000, "Sessão x · 1000 mensagens · atualizada em t\n"},
	} {
		if got := c.p.Sprintf(key, "x", c.n, "t"); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.p.Tag(), c.n, got, c.want)
		}
	}
	if got := en.Sprintf("Loaded session %q (%d messages).\n", "x", 1); got != "Loaded session \"x\" (1 message).\n" {
		t.Errorf("%q", got)
	}
}

// TestSeveralCountsInOneMessage: each count of a message picks its own
// words, in both languages, a choice naming its count where it is not
// the nearest before it.
func TestSeveralCountsInOneMessage(t *testing.T) {
	en, pt := New(English), New(Portuguese)
	join := "Joined hub thread %q (%d members, %d recent turns). The turns of its other members are shown here as they end; /hub leave stops that."
	gained := "session %q gained %d messages elsewhere; this window's %d new messages now follow them"
	for _, c := range []struct {
		p      *Printer
		key    string
		n, m   int
		prefix string
	}{
		{en, join, 1, 2, `Joined hub thread "h" (1 member, 2 recent turns).`},
		{en, join, 2, 1, `Joined hub thread "h" (2 members, 1 recent turn).`},
		{en, join, 0, 0, `Joined hub thread "h" (0 members, 0 recent turns).`},
		{pt, join, 1, 2, "Entrou na thread do hub 'h' (1 membro, 2 turnos recentes)."},
		{pt, join, 2, 0, "Entrou na thread do hub 'h' (2 membros, 0 turnos recentes)."},
		{en, gained, 1, 2, `session "h" gained 1 message elsewhere; this window's 2 new messages now follow it`},
		{en, gained, 2, 1, `session "h" gained 2 messages elsewhere; this window's 1 new message now follows them`},
		{pt, gained, 1, 2, "a sessão 'h' ganhou 1 mensagem em outro lugar; as 2 mensagens novas desta janela vêm agora depois dela"},
		{pt, gained, 2, 1, "a sessão 'h' ganhou 2 mensagens em outro lugar; a 1 mensagem nova desta janela vem agora depois delas"},
	} {
		if got := c.p.Sprintf(c.key, "h", c.n, c.m); !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s %d %d: %q, want %q…", c.p.Tag(), c.n, c.m, got, c.prefix)
		}
	}
}

// TestCountedErrorsInEnglish: an Errorf that counts one says it in the
// singular in English too, and still wraps what %w wraps.
func TestCountedErrorsInEnglish(t *testing.T) {
	cause := errors.New("cause")
	err := Errorf("cancelled; %d tool calls not run were marked interrupted: %w", 1, cause)
	if got := err.Error(); got != "cancelled; 1 tool call not run was marked interrupted: cause" {
		t.Errorf("%q", got)
	}
	if !errors.Is(err, cause) {
		t.Error("the cause is not wrapped")
	}
	err = Errorf("cancelled; %d tool calls not run were marked interrupted: %w", 3, cause)
	if got := err.Error(); got != "cancelled; 3 tool calls not run were marked interrupted: cause" {
		t.Errorf("%q", got)
	}
	if got := New(Portuguese).Error(Errorf("cancelled; %d tool calls not run were marked interrupted: %w", 1, cause), nil); got != "cancelado; 1 chamada de ferramenta não executada foi marcada como interrompida: cause" {
		t.Errorf("%q", got)
	}
	if got := Textf("deleted %d orphan journals", 1).String(); got != "deleted 1 orphan journal" {
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
