package main

import (
	"strings"
	"testing"
)

// TestServerAndStorageHelpSpeakPortuguese: the --help texts of
// mcp-server, acp, gateway, import and storage verify, rekey and decrypt
// are Portuguese under CHATCLI_LANG=pt-BR and as before in English.
func TestServerAndStorageHelpSpeakPortuguese(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	for _, c := range []struct {
		args   []string
		pt, en string
	}{
		{[]string{"mcp-server"}, "chatcli mcp-server serve o motor de conversa", "chatcli mcp-server serves chatcli's conversation engine"},
		{[]string{"acp"}, "Serve conversas do chatcli a um editor", "Serve chatcli conversations to an editor"},
		{[]string{"gateway"}, "chatcli gateway liga plataformas de chat", "chatcli gateway connects chat platforms"},
		{[]string{"gateway"}, "valida as configurações e sai, sem conectar", "validate the settings and exit, connecting nowhere"},
		{[]string{"import"}, "Importa as conversas que outra ferramenta guardou", "Import the conversations another tool stored"},
		{[]string{"storage", "verify"}, "Lê cada arquivo de sessão (sessions/*.json)", "Read every session file (sessions/*.json)"},
		{[]string{"storage", "rekey"}, "Sela de novo cada arquivo de sessão", "Re-seal every session file"},
		{[]string{"storage", "decrypt"}, "Grava de volta em texto puro", "Write every sealed session file"},
	} {
		for lang, want := range map[string]string{"pt-BR": c.pt, "en": c.en} {
			out, errOut, code := run(t, []string{home, "CHATCLI_LANG=" + lang}, "", append(c.args, "--help")...)
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("%s %v --help: exit %d, %q missing from:\n%s%s", lang, c.args, code, want, out, errOut)
			}
		}
	}
}
