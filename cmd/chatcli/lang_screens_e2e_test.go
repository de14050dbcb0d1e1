package main

import (
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
