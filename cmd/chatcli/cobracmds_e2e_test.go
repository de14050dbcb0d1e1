package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Cobra's own help and completion commands are summarised in the
// process's language, and their help fits 80 columns.
func TestCobraCommandsSpeakPortuguese(t *testing.T) {
	for _, c := range []struct {
		lang string
		args []string
		want []string
	}{
		{"pt-BR", []string{"--help"}, []string{"  completion  Gera o script de autocompletar para o shell indicado\n", "  help        Ajuda sobre qualquer comando\n"}},
		{"en", []string{"--help"}, []string{"  completion  Generate the autocompletion script for the specified shell\n", "  help        Help about any command\n"}},
		{"pt-BR", []string{"completion", "--help"}, []string{"Gera o script de autocompletar do chatcli para o shell indicado.\n", "  bash        Gera o script de autocompletar para o bash\n"}},
		{"pt-BR", []string{"completion", "bash", "--help"}, []string{"desliga as descrições do autocompletar"}},
		{"en", []string{"completion", "bash", "--help"}, []string{"you can install it via your OS's\npackage manager.\n"}},
	} {
		out, _, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + c.lang}, "", c.args...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("%s %v: exit %d, %q missing from:\n%s", c.lang, c.args, code, w, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s %v: a line of %d columns: %q", c.lang, c.args, n, line)
			}
		}
	}
}

// TestCompletionHelpSpeaksPortuguese: each shell's completion help is in
// Portuguese under CHATCLI_LANG=pt-BR, with the commands to run exactly
// as in English, and English stays cobra's text.
func TestCompletionHelpSpeaksPortuguese(t *testing.T) {
	for sh, want := range map[string][2]string{
		"bash":       {"Generate the autocompletion script for the bash shell.\n", "Gera o script de autocompletar para o shell bash.\n"},
		"zsh":        {"You will need to start a new shell for this setup to take effect.\n", "Basta executar uma vez:\n"},
		"fish":       {"To load completions in your current shell session:\n", "Para carregar o autocompletar na sessão atual do shell:\n"},
		"powershell": {"to your powershell profile.\n", "ao seu perfil do powershell.\n"},
	} {
		home := "CHATCLI_HOME=" + t.TempDir()
		en, _, code := run(t, []string{home, "CHATCLI_LANG=en"}, "", "completion", sh, "--help")
		pt, _, ptCode := run(t, []string{home, "CHATCLI_LANG=pt-BR"}, "", "completion", sh, "--help")
		if code != 0 || ptCode != 0 || !strings.Contains(en, want[0]) || !strings.Contains(pt, want[1]) {
			t.Fatalf("%s: exit %d/%d\nEnglish:\n%s\nPortuguese:\n%s", sh, code, ptCode, en, pt)
		}
		if strings.Contains(pt, "To load") || strings.Contains(pt, "Generate the") || !strings.Contains(pt, "desliga as descrições do autocompletar") {
			t.Errorf("%s: English left in the Portuguese help:\n%s", sh, pt)
		}
		if got, want := commandLines(pt), commandLines(en); strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 {
			t.Errorf("%s: the commands to run changed:\n%q\nwant\n%q", sh, got, want)
		}
	}
}

// commandLines are the lines of a help text that start with a tab: the
// commands it shows to run.
func commandLines(help string) []string {
	var out []string
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(line, "\t") {
			out = append(out, line)
		}
	}
	return out
}
