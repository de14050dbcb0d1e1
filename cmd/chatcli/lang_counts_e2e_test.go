package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsOfOneAreSingular: storage verify's summary and the error it
// ends with say a count of one in the singular, in English and in
// Portuguese, where they said "1 damaged file(s)" and "1 arquivo(s)
// danificado(s)"; Portuguese says 0 in the singular too, as CLDR's pt.
func TestCountsOfOneAreSingular(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "sessions", "bad.json"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"Verificado 1 arquivo de sessão, 0 sessões na lixeira e 0 journals.\n",
			"chatcli: storage verify: há danos: 1 arquivo danificado, listado acima\n"},
		"en": {"Checked 1 session file, 0 trashed sessions and 0 journals.\n",
			"chatcli: storage verify: damage found: 1 damaged file, listed above\n"},
	} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, "", "storage", "verify")
		if code != exitDamaged {
			t.Errorf("%s: exit %d, want %d", lang, code, exitDamaged)
		}
		for _, w := range want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%s: %q missing from:\n%s%s", lang, w, out, errOut)
			}
		}
		if strings.Contains(out+errOut, "(s)") {
			t.Errorf("%s: a noun in both forms:\n%s%s", lang, out, errOut)
		}
	}
}
