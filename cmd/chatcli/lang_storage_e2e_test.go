package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSyntaxErrorsSpeakPortuguese: the syntax errors of chatcli's JSON
// reader, inside the error of a session file that cannot be read, are
// Portuguese under CHATCLI_LANG=pt-BR and as before in English, with the
// same exit code (4, unreadable) in both.
func TestJSONSyntaxErrorsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"garbage": "garbage", "cut": `{"version":2,"chat_history":[1,}`} {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"garbage.json: JSON inválido: esperava um objeto no byte 0; tire-o do lugar",
			"cut.json: JSON inválido: esperava um valor no byte 31; tire-o do lugar"},
		"en": {"garbage.json: invalid JSON: want an object at byte 0; move it aside",
			"cut.json: invalid JSON: want a value at byte 31; move it aside"},
	} {
		for i, name := range []string{"garbage", "cut"} {
			_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, "", "session", "show", name)
			if code != exitData || !strings.Contains(errOut, want[i]) {
				t.Errorf("%s %s: exit %d, want %d and %q:\n%s", lang, name, code, exitData, want[i], errOut)
			}
		}
	}
}
