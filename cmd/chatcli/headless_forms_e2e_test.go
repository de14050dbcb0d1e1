package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadlessMemoryAndContextNameTheirOwnForm: chatcli memory and
// chatcli context, which run the REPL's /memory and /context, name their
// headless form in their usage errors and hints, in English and in
// Portuguese, and never a slash command that has one.
func TestHeadlessMemoryAndContextNameTheirOwnForm(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang string
		args []string
		want string
	}{
		{"en", []string{"memory", "forget"}, "chatcli: chatcli memory forget N (N from `chatcli memory list`)"},
		{"pt-BR", []string{"memory", "forget"}, "chatcli memory forget N (N de `chatcli memory list`)"},
		{"en", []string{"memory", "forget", "x"}, `chatcli memory forget N: "x" is not a number`},
		{"pt-BR", []string{"memory", "forget", "x"}, `chatcli memory forget N: "x" não é um número`},
		{"en", []string{"memory", "nope"}, `unknown verb "nope" of chatcli memory; chatcli memory save TEXT | list | forget N | show`},
		{"pt-BR", []string{"memory", "nope"}, `verbo desconhecido "nope" de chatcli memory; chatcli memory save TEXT | list | forget N | show`},
		{"en", []string{"memory", "list"}, "Memory is empty (`chatcli memory save TEXT` adds a note).\n"},
		{"pt-BR", []string{"memory", "list"}, "A memória está vazia (`chatcli memory save TEXTO` adiciona uma nota).\n"},
		{"en", []string{"context", "create", "c"}, "chatcli context create NAME PATH…"},
		{"en", []string{"context", "show"}, "chatcli context show NAME"},
		{"en", []string{"context", "delete"}, "chatcli context delete NAME --yes"},
		{"en", []string{"context", "nope"}, `unknown verb "nope" of chatcli context; chatcli context [create NAME PATH… | list | show NAME | delete NAME --yes]`},
		{"pt-BR", []string{"context", "nope"}, `verbo desconhecido "nope" de chatcli context; chatcli context [`},
		{"en", []string{"context", "list"}, "No contexts (`chatcli context create NAME PATH…` makes one).\n"},
		{"pt-BR", []string{"context", "list"}, "Nenhum contexto (`chatcli context create NOME CAMINHO…` cria um).\n"},
		{"en", []string{"context"}, "Memory: 0 notes (`chatcli memory show`)\n"},
		{"pt-BR", []string{"context"}, "Memória: 0 notas (`chatcli memory show`)\n"},
		{"en", []string{"context", "create", "c", dir}, "/context attach c, in the REPL or a script piped to chatcli, sends it.\n"},
		{"pt-BR", []string{"context", "create", "d", dir}, "/context attach d, no REPL ou num script enviado por pipe ao chatcli, o envia.\n"},
		{"en", []string{"context", "delete", "c"}, "deleting needs confirmation: chatcli context delete c --yes"},
		{"pt-BR", []string{"context", "delete", "c"}, "deletar precisa de confirmação: chatcli context delete c --yes"},
	} {
		out, errOut, _ := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + c.lang}, "", c.args...)
		if !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s %q: %q missing from:\n%s%s", c.lang, c.args, c.want, out, errOut)
		}
		if strings.Contains(out+errOut, "/memory") || strings.Contains(out+errOut, "/context "+c.args[len(c.args)-1]) && c.args[1] != "create" {
			t.Errorf("%s %q names a slash command:\n%s%s", c.lang, c.args, out, errOut)
		}
	}
}
