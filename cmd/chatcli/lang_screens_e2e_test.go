package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPortugueseConfigTables: chatcli config, chatcli config session and
// /config session print their headings and sources in Portuguese under
// CHATCLI_LANG=pt-BR, the settings' names and values as they are.
func TestPortugueseConfigTables(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=pt-BR", "HOME=" + home, "XDG_CONFIG_HOME=" + home, "CHATCLI_SESSION_TTL=7d"}
	var all strings.Builder
	for _, step := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"config"}},
		{"", []string{"config", "session"}},
		{"/config session\n", nil},
	} {
		out, errOut, code := run(t, env, step.stdin, step.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", step.args, code, errOut)
		}
		all.WriteString(out)
	}
	out := all.String()
	for _, want := range []string{"arquivo de configuração: " + home, " (nenhum)\n", "CONFIGURAÇÃO ", "VALOR ", "ORIGEM\n",
		"CHATCLI_SESSION_TTL ", "7d ", "ambiente\n", "padrão\n", "sessão vinculada: (nenhuma)\njournal ativo: (nenhum ainda)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SOURCE") || strings.Contains(out, "environment\n") {
		t.Errorf("English left in:\n%s", out)
	}
}

// TestPortugueseListings: /session transcript stats, /context (its
// status, list and show) and /memory show speak Portuguese under
// CHATCLI_LANG=pt-BR.
func TestPortugueseListings(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := "hello\n/session transcript stats\n/memory save lembrar\n/memory show\n/context create docs " + dir + "\n/context attach docs\n/context\n/context list\n/context show docs\n"
	out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=pt-BR", "CHATCLI_SESSION_TRANSCRIPT=on"}, script)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"mensagens: 2 (usuário 1, assistente 1, ferramenta 0, sistema 0)\n", "\norigem:   ",
		"O que cada requisição inclui (", "Arquivos de bootstrap (pasta de trabalho, depois ", "Memória: 1 nota (/memory show)\n",
		", prioridade 0\n", "ARQUIVOS", "TAMANHO", "anexado", "Contexto 'docs', criado em ", ": 1 arquivo, ", " em 1 chunk (de fora: 0 pelo .gitignore, 0 binários)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from:\n%s", want, out)
		}
	}
}
