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
