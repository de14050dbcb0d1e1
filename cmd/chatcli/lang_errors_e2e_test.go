package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorKindsSpeakPortuguese: the error line of each kind (a missing
// session, an unreadable file, a refused name, a provider that cannot be
// reached, a failed REPL line) names its kind in Portuguese under
// CHATCLI_LANG=pt-BR and in English otherwise, keeps its detail, and
// exits with the same code in both languages.
func TestErrorKindsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "sessions", "bad.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		stdin  string
		env    string
		code   int
		pt, en string
	}{
		{[]string{"session", "show", "nope"}, "", "", exitNotFound,
			`chatcli: sessão não encontrada: "nope" (no file `, `chatcli: session: not found: "nope" (no file `},
		{[]string{"session", "show", "bad"}, "", "", exitData,
			"chatcli: arquivo de sessão ilegível: " + filepath.Join(home, "sessions", "bad.json"), "chatcli: session: unreadable file: "},
		{[]string{"session", "show", "../x"}, "", "", exitUsage,
			`chatcli: nome de sessão inválido "../x": contains '..'; os nomes usam letras`, `chatcli: session: invalid name "../x": contains '..'; names use letters`},
		{[]string{"-p", "hi"}, "", "OPENAI_BASE_URL=http://127.0.0.1:1", exitProvider,
			"chatcli: openai: não foi possível conectar ao servidor", "chatcli: openai: cannot connect to the server"},
		{nil, "/session load nosuch\n", "", exitNotFound,
			"erro: sessão não encontrada: \"nosuch\"", "error: session: not found: \"nosuch\""},
	} {
		codes := map[string]int{}
		for lang, want := range map[string]string{"pt-BR": c.pt, "en": c.en} {
			_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang, c.env}, c.stdin, c.args...)
			codes[lang] = code
			if !strings.Contains(errOut, want) {
				t.Errorf("%v in %s: %q missing from:\n%s", c.args, lang, want, errOut)
			}
		}
		if codes["pt-BR"] != c.code || codes["en"] != c.code {
			t.Errorf("%v: exit codes %v, want %d in both", c.args, codes, c.code)
		}
	}
}
