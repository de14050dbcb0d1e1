package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportErrorsSpeakPortuguese: under CHATCLI_LANG=pt-BR, chatcli
// import says an unknown tool, a damaged file among the files it was
// given, a skipped line and a skipped member in Portuguese, keeping the
// names and paths; in English every line is as before.
func TestImportErrorsSpeakPortuguese(t *testing.T) {
	home, env := importHome(t)
	dir := filepath.Join(home, "exports")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	bad, odd, lines := filepath.Join(dir, "bad.json"), filepath.Join(dir, "odd.json"), filepath.Join(dir, "s1.jsonl")
	for path, text := range map[string]string{
		bad:   `{"info":`,
		odd:   `{"info":{"id":"ses_1","title":"t"},"messages":[{"info":{"role":"robot"},"parts":[]}]}`,
		lines: "not json\n" + `{"type":"user","sessionId":"s-0001","message":{"role":"user","content":"hello there"}}` + "\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		lang                           string
		unknown, damaged, member, line []string
	}{
		{"en",
			[]string{`chatcli: importer: unknown tool "/nonexistent.json": one of claude-code, codex, gemini, opencode`},
			[]string{"import: " + bad + ": " + bad + ": not an opencode export: unexpected end of JSON input",
				"chatcli: import: 1 file failed, named above: " + bad + ": not an opencode export: unexpected end of JSON input"},
			[]string{"import: " + odd + `: messages[0]: role "robot" is not opencode's; skipped`},
			[]string{"import: " + lines + ":1: not JSON (invalid character 'o' in literal null (expecting 'u')); skipped"}},
		{"pt-BR",
			[]string{`chatcli: importação: ferramenta desconhecida "/nonexistent.json": use uma de claude-code, codex, gemini, opencode`},
			[]string{"import: " + bad + ": " + bad + ": não é uma exportação do opencode: o JSON termina antes da hora",
				"chatcli: importação: 1 arquivo falhou, indicado acima: " + bad + ": não é uma exportação do opencode:"},
			[]string{"import: " + odd + `: messages[0]: o papel "robot" não é do opencode; mensagem pulada`},
			[]string{"import: " + lines + ":1: não é JSON (JSON inválido no byte 2); linha pulada"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			env := append(env[:len(env):len(env)], "CHATCLI_LANG="+c.lang, "CHATCLI_HOME="+filepath.Join(home, ".chatcli-"+c.lang))
			says := func(what string, want []string, code, wantCode int, errOut string) {
				t.Helper()
				if code != wantCode {
					t.Errorf("%s: exit %d, want %d\n%s", what, code, wantCode, errOut)
				}
				for _, w := range want {
					if !strings.Contains(errOut, w) {
						t.Errorf("%s: stderr lacks %q:\n%s", what, w, errOut)
					}
				}
			}
			_, errOut, code := run(t, env, "", "import", "/nonexistent.json")
			says("unknown tool", c.unknown, code, 2, errOut)
			_, errOut, code = run(t, env, "", "import", "opencode", bad, odd)
			says("damaged file", append(c.damaged, c.member...), code, 1, errOut)
			_, errOut, code = run(t, env, "", "import", "claude-code", lines)
			says("skipped line", c.line, code, 0, errOut)
		})
	}
}
