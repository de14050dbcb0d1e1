package main

import (
	"strings"
	"testing"
)

// TestSearchWarningsSpeakTheReadersLanguage: the warnings of session
// search over a damaged store (the damaged journal lines it skipped, the
// session file it could not read) are said in Portuguese under
// CHATCLI_LANG=pt-BR, with no English left, and in English as before.
func TestSearchWarningsSpeakTheReadersLanguage(t *testing.T) {
	home, j := damagedStore(t)
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"en", []string{
			"warning: skipped session \"t1\": session: unreadable file: ",
			"warning: " + j + `:3: skipped a damaged line (journal: corrupt record: unknown record type "x")` + "\n",
			"warning: " + j + ":6: skipped a damaged line (torn last line, 12 bytes without a newline)\n",
		}},
		{"pt-BR", []string{
			"aviso: sessão \"t1\" pulada: arquivo de sessão ilegível: ",
			"aviso: " + j + `:3: linha danificada pulada (registro do journal corrompido: tipo de registro desconhecido "x")` + "\n",
			"aviso: " + j + ":5: linha danificada pulada (registro do journal corrompido: JSON inválido no byte 1: caractere inesperado 'g')\n",
			"aviso: " + j + ":6: linha danificada pulada (última linha cortada, 12 bytes sem quebra de linha)\n",
		}},
	} {
		_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + c.lang}, "", "session", "search", "hi")
		if code != 0 {
			t.Errorf("%s: exit %d\n%s", c.lang, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: %q missing from:\n%s", c.lang, w, errOut)
			}
		}
		if c.lang != "en" && strings.Contains(errOut, "skipped") {
			t.Errorf("%s: English left in:\n%s", c.lang, errOut)
		}
	}
}
