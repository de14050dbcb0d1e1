package main

import (
	"strings"
	"testing"
)

// TestARefusedNameIsExplainedInPortuguese checks that why a session name
// is refused, and the rule after it, are said in Portuguese, the English
// line staying as it was.
func TestARefusedNameIsExplainedInPortuguese(t *testing.T) {
	home := []string{"CHATCLI_HOME=" + t.TempDir()}
	for _, c := range []struct{ name, en, pt string }{
		{"a b", "contains a space", "contém um espaço"},
		{"a..b", "contains '..'", "contém '..'"},
		{"con", "is a reserved device name on Windows", "é um nome de dispositivo reservado no Windows"},
		{"a~b", "character '~' is not allowed", "o caractere '~' não é permitido"},
	} {
		_, en, code := run(t, home, "", "session", "show", c.name)
		if want := `chatcli: session: invalid name "` + c.name + `": ` + c.en + "; names use letters and digits"; code == 0 || !strings.HasPrefix(en, want) {
			t.Errorf("en %q: exit %d\n%s", c.name, code, en)
		}
		_, pt, ptCode := run(t, append(home, "CHATCLI_LANG=pt-BR"), "", "session", "show", c.name)
		if want := `chatcli: nome de sessão inválido "` + c.name + `": ` + c.pt + "; os nomes usam letras e dígitos"; ptCode != code || !strings.HasPrefix(pt, want) {
			t.Errorf("pt-BR %q: exit %d (en %d)\n%s", c.name, ptCode, code, pt)
		}
	}
}
