package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestMessagesWrapAtWordsOnASixtyColumnTerminal: on a 60-column terminal
// the REPL's own lines (its banner, /model's sentence, /context's status, a
// note, a failed turn's error and hint) are wrapped at their spaces: no
// line is wider than 60 cells and every sentence reads word for word, in
// Portuguese and in English.
func TestMessagesWrapAtWordsOnASixtyColumnTerminal(t *testing.T) {
	needTmux(t)
	const width = 60
	for i, tc := range []struct {
		lang  string
		tag   language.Tag
		model string
	}{
		{"pt-BR", language.BrazilianPortuguese, "um-modelo-de-nome-bem-comprido"},
		{"en", language.English, "a-model-with-a-rather-long-name"},
	} {
		lang := i18n.New(tc.tag)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".chatcli_history"), []byte("one\ntwo\nthree\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-wrap-%d-%d", os.Getpid(), i), dir: dir}
		srv, _ := markerServer(t, "never")
		s.start(width, 200, "CHATCLI_LANG="+tc.lang, "OPENAI_BASE_URL="+srv.URL+"/v1")
		s.waitFor("gpt-4o-mini>")
		// Each line is typed once the one before it is answered: its
		// prompt is on the screen once more.
		prompt, seen := tc.model+">", 0
		for _, k := range []string{"/model " + tc.model, "/context", "this one never gets an answer"} {
			s.run("send-keys", "-t", s.name, "-l", k)
			s.run("send-keys", "-t", s.name, "Enter")
			if !strings.HasPrefix(k, "/") {
				break
			}
			seen++
			s.waitForCount(prompt, seen)
		}
		hint := lang.Sprintf("%w; the prompt is kept, marked unanswered, and is not sent again: /retry resends it (/retry TEXT sends TEXT instead), /rewind steps back", errors.New("X"))
		hint = hint[strings.Index(hint, "; ")+2:]
		s.waitFor("/rewind")
		lines := s.wholeLines()
		screen := strings.Join(lines, "\n")
		for _, l := range lines {
			if n := ansi.StringWidth(strings.TrimRight(l, " ")); n > width {
				t.Errorf("%s: a line of %d cells: %q\n\nthe screen:\n%s", tc.lang, n, l, screen)
			}
		}
		words := " " + strings.Join(strings.Fields(screen), " ") + " "
		for _, want := range []string{
			strings.TrimSuffix(lang.Sprintf("chatcli %s · provider %s · model %s · /help for commands", version, "openai", "gpt-4o-mini"), "\n"),
			lang.Sprintf("Now using provider %s, model %s, from the next turn; the conversation stays one history.\n", "openai", tc.model),
			lang.Sprintf("note: %s\n", lang.Sprintf("took in %d lines of ChatCLI's input history (%s)", 3, ".chatcli_history")),
			lang.Sprintf("Memory: %d notes (/memory show)\n", 0),
			hint,
		} {
			if w := " " + strings.Join(strings.Fields(want), " ") + " "; !strings.Contains(words, w) {
				t.Errorf("%s: not read word for word: %q\n\nthe screen:\n%s", tc.lang, want, screen)
			}
		}
	}
}

// TestMessagesOffATerminalAreWhole: piped, chatcli's messages are never
// wrapped, COLUMNS or not: the REPL's sentences, notes and errors and
// storage verify's and storage prune's reports are byte for byte the same
// with COLUMNS=40, each sentence one line.
func TestMessagesOffATerminalAreWhole(t *testing.T) {
	home, _ := damagedStore(t)
	for _, lang := range []string{"en", "pt-BR"} {
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang, "OPENAI_API_KEY=k", "CHATCLI_SESSION_AUTOSAVE=off"}
		server := func() string { srv, _ := markerServer(t, "never"); return "OPENAI_BASE_URL=" + srv.URL + "/v1" }
		for _, tc := range []struct {
			stdin string
			args  []string
		}{
			{"/model a-model-with-a-rather-long-name\n/context\nthis one never gets an answer\n", nil},
			{"", []string{"storage", "verify"}},
			{"", []string{"storage", "prune"}},
		} {
			out, errOut, _ := run(t, append(env, server()), tc.stdin, tc.args...)
			out40, errOut40, _ := run(t, append(env, server(), "COLUMNS=40"), tc.stdin, tc.args...)
			if out40 != out || errOut40 != errOut {
				t.Errorf("%s %v: COLUMNS=40 changed the piped output:\n%s%s\n---\n%s%s", lang, tc.args, out, errOut, out40, errOut40)
			}
			if tc.args == nil && lang == "en" && !strings.Contains(out, "Now using provider openai, model a-model-with-a-rather-long-name, from the next turn; the conversation stays one history.\n") {
				t.Errorf("/model's sentence piped:\n%s", out)
			}
		}
	}
}
