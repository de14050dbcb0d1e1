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
			`chatcli: sessão não encontrada: "nope" (o arquivo `, `chatcli: session: not found: "nope" (no file `},
		{[]string{"session", "show", "bad"}, "", "", exitData,
			"chatcli: arquivo de sessão ilegível: " + filepath.Join(home, "sessions", "bad.json"), "chatcli: session: unreadable file: "},
		{[]string{"session", "show", "../x"}, "", "", exitUsage,
			`chatcli: nome de sessão inválido "../x": contém '..'; os nomes usam letras`, `chatcli: session: invalid name "../x": contains '..'; names use letters`},
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

// TestErrorLinesSpeakPortugueseAroundTheKinds: under CHATCLI_LANG=pt-BR the
// whole error line is Portuguese, not only its kind: what a missing file
// is, the usage errors of chatcli's arguments, pflag's flag errors
// (unknown, missing or bad values) and the REPL's command errors, with
// the same exit codes as in English, whose lines are unchanged.
func TestErrorLinesSpeakPortugueseAroundTheKinds(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args   []string
		stdin  string
		code   int
		pt, en string
	}{
		{[]string{"session", "show", "nope"}, "", exitNotFound,
			`chatcli: sessão não encontrada: "nope" (o arquivo ` + filepath.Join(home, "sessions", "nope.json") + " não existe)\n",
			`chatcli: session: not found: "nope" (no file ` + filepath.Join(home, "sessions", "nope.json") + ")\n"},
		{[]string{"session", "fork", "a"}, "", exitUsage,
			"chatcli: chatcli session fork espera SRC e DST (recebeu 1); veja chatcli session fork --help\n",
			"chatcli: chatcli session fork needs SRC and DST (got 1); see chatcli session fork --help\n"},
		{[]string{"--bogus"}, "", exitUsage,
			"chatcli: flag desconhecida: --bogus; veja chatcli --help\n",
			"chatcli: unknown flag: --bogus; see chatcli --help\n"},
		{[]string{"session", "list", "-x"}, "", exitUsage,
			"chatcli: flag curta desconhecida: 'x' em -x; veja chatcli session list --help\n",
			"chatcli: unknown shorthand flag: 'x' in -x; see chatcli session list --help\n"},
		{[]string{"session", "list", "-n", "abc"}, "", exitUsage,
			`chatcli: argumento inválido "abc" para a flag "-n, --limit": "abc" não é um número; veja chatcli session list --help` + "\n",
			`chatcli: invalid argument "abc" for "-n, --limit" flag: strconv.ParseInt: parsing "abc": invalid syntax; see chatcli session list --help` + "\n"},
		{[]string{"session", "list", "--limit"}, "", exitUsage,
			"chatcli: a flag precisa de um argumento: --limit; veja chatcli session list --help\n",
			"chatcli: flag needs an argument: --limit; see chatcli session list --help\n"},
		{[]string{"session", "list", "extra"}, "", exitUsage,
			"chatcli: chatcli session list espera nenhum argumento (recebeu 1); veja chatcli session list --help\n",
			"chatcli: chatcli session list needs no arguments (got 1); see chatcli session list --help\n"},
		{nil, "/rewind 99\n/memory forget 9\n/bogus\n", exitUsage,
			"erro: checkpoint inexistente: 99 (existem 0)\n" +
				"erro: nota inexistente na memória: 9 (não há notas)\n" +
				"erro: comando desconhecido /bogus; /help lista os comandos\n" +
				"chatcli: algumas linhas da entrada falharam (3; cada uma foi informada acima)\n",
			"error: rewind: no such checkpoint: 99 (there are 0)\n" +
				"error: memory: no such note: 9 (there are no notes)\n" +
				"error: unknown command /bogus; /help lists the commands\n" +
				"chatcli: some input lines failed (3; each is reported above)\n"},
	} {
		codes := map[string]int{}
		for lang, want := range map[string]string{"pt-BR": c.pt, "en": c.en} {
			_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, c.stdin, c.args...)
			codes[lang] = code
			if !strings.HasSuffix(errOut, want) {
				t.Errorf("%v in %s: stderr ends\n%s\nwant\n%s", c.args, lang, errOut, want)
			}
		}
		if codes["pt-BR"] != c.code || codes["en"] != c.code {
			t.Errorf("%v: exit codes %v, want %d in both", c.args, codes, c.code)
		}
	}
}
