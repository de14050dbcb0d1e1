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

// TestKeyStateAndJSONFlagsSpeakPortuguese: what /config session says of
// CHATCLI_ENCRYPTION_KEY (unset, a key, a passphrase) and the --json flag
// lines of storage verify, rekey and decrypt are Portuguese under
// CHATCLI_LANG=pt-BR and as before in English.
func TestKeyStateAndJSONFlagsSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"não definido (os arquivos ficam em texto puro)", "definido (sessões e journals são selados)",
			"definido, uma frase-senha (Argon2id, sal em key-salt.json; sessões e journals são selados)",
			"--json     imprime {sound, sessions,", "--json   imprime {rekeyed, unchanged,", "--json   imprime {rekeyed (arquivos descriptografados),"},
		"en": {"not set (files are plaintext)", "set (sessions and journals are sealed)",
			"set, a passphrase (Argon2id, salt in key-salt.json; sessions and journals are sealed)",
			"--json     print {sound, sessions,", "--json   print {rekeyed, unchanged,", "--json   print {rekeyed (files decrypted),"},
	} {
		var all strings.Builder
		for _, key := range []string{"", strings.Repeat("K", 43) + "=", "a passphrase"} {
			env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_ENCRYPTION_KEY=" + key}
			out, errOut, code := run(t, env, "/config session\n")
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s", lang, code, errOut)
			}
			all.WriteString(out)
		}
		for _, verb := range []string{"verify", "rekey", "decrypt"} {
			out, _, _ := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang}, "", "storage", verb, "--help")
			all.WriteString(out)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}
