package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestHelpSpeaksPortugueseAndFitsEightyColumns: --help speaks the
// language CHATCLI_LANG picks (headings, summaries, flag lines) and no
// line of the flags' help is wider than 80 columns, in either language.
func TestHelpSpeaksPortugueseAndFitsEightyColumns(t *testing.T) {
	for _, c := range []struct {
		lang string
		args []string
		want []string
	}{
		{"pt-BR", []string{"--help"}, []string{"Uso:\n", "Comandos disponíveis:", "Gerencia as sessões salvas", "nome do modelo (padrão:", "ajuda de chatcli"}},
		{"pt-BR", []string{"session", "--help"}, []string{"Lista as sessões salvas, as mais novas primeiro", "Flags globais:", "Gerencia as sessões em $CHATCLI_HOME/sessions sem iniciar o REPL.", `Use "chatcli session [command] --help" para saber mais`}},
		{"pt-BR", []string{"--help"}, []string{"chatcli é um cliente de chat de IA no terminal", "Códigos de saída: 0 sucesso"}},
		{"pt-BR", []string{"storage", "prune", "--help"}, []string{"Lista o que as regras de retenção removeriam agora", "17 3 * * *  chatcli storage prune --apply --quiet"}},
		{"en", []string{"--help"}, []string{"Usage:\n", "Available Commands:", "Manage saved sessions", "model name (default from", "help for chatcli"}},
		{"en", []string{"session", "--help"}, []string{"List saved sessions, newest first", "Global Flags:", `Use "chatcli session [command] --help" for more information`}},
	} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + c.lang}, "", c.args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d\n%s", c.lang, c.args, code, errOut)
		}
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s %v: %q missing from:\n%s", c.lang, c.args, want, out)
			}
		}
		_, flags, _ := strings.Cut(out, "\nFlags:\n")
		flags, _, _ = strings.Cut(flags, "\n\nUse ")
		for _, line := range strings.Split(flags, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s %v: a flag line of %d columns: %q", c.lang, c.args, n, line)
			}
		}
	}
}

// TestHelpCatalogNamesRealTexts: every English text of the help catalog
// is a summary, text or flag line of a command, so the catalog follows the
// commands as they change.
func TestHelpCatalogNamesRealTexts(t *testing.T) {
	texts := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts[c.Short], texts[c.Long] = true, true
		c.Flags().VisitAll(func(f *pflag.Flag) { texts[f.Usage] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { texts[f.Usage] = true })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&factory{streams: &ioStreams{}, getenv: func(string) string { return "" }}, nil))
	for _, en := range i18n.HelpTexts() {
		if !texts[en] {
			t.Errorf("help catalog text %q is no command's summary, text or flag line", en)
		}
		if i18n.New(i18n.Portuguese).Help(en) == en {
			t.Errorf("%q has no Portuguese", en)
		}
	}
}

// TestOfflineBannerFitsEightyColumns: the offline provider's banner says
// its replies come from no model, in lines of at most 80 columns.
func TestOfflineBannerFitsEightyColumns(t *testing.T) {
	for _, lang := range []string{"pt-BR", "en"} {
		_, errOut, _ := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang}, "")
		if !strings.Contains(errOut, "NOT by a language model") && !strings.Contains(errOut, "NÃO por um modelo de linguagem") {
			t.Errorf("%s: the banner does not say the replies come from no model:\n%s", lang, errOut)
		}
		for _, line := range strings.Split(errOut, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s: a banner line of %d columns: %q", lang, n, line)
			}
		}
	}
}

// TestEveryHelpScreenFitsEightyColumns: the whole --help of every command,
// as printed in either language (the command lists built from the
// summaries, the usage line, the Portuguese texts), has no line wider
// than 80 columns.
func TestEveryHelpScreenFitsEightyColumns(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(newRootCmd(&factory{streams: &ioStreams{}, getenv: func(string) string { return "" }}, nil), nil)
	home := "CHATCLI_HOME=" + t.TempDir()
	for _, lang := range []string{"en", "pt-BR"} {
		for _, p := range paths {
			out, errOut, code := run(t, []string{home, "CHATCLI_LANG=" + lang}, "", append(p, "--help")...)
			if code != 0 {
				t.Fatalf("%s %v --help: exit %d\n%s", lang, p, code, errOut)
			}
			for _, line := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(line); n > 80 {
					t.Errorf("%s chatcli %s --help: a line of %d columns: %q", lang, strings.Join(p, " "), n, line)
				}
			}
		}
	}
}
