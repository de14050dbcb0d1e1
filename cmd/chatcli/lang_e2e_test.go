package main

import (
	"strings"
	"testing"
)

// TestPortugueseSessionMessages: with CHATCLI_LANG=pt-BR, save, load,
// fork, delete and new print ChatCLI's Portuguese lines; LANG selects the
// language when CHATCLI_LANG is unset, and English stays the default.
func TestPortugueseSessionMessages(t *testing.T) {
	script := "hello\n/session save debug-api\n/session new\n/session load debug-api\n/session fork experimento-v2\n/session delete debug-api --yes\n"
	for _, lang := range []string{"CHATCLI_LANG=pt-BR", "LANG=pt_BR.UTF-8"} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), lang}, script)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", lang, code, errOut)
		}
		for _, want := range []string{
			"Sessão 'debug-api' salva com sucesso.\n",
			"Nova sessão de conversa iniciada; histórico foi limpo.\n",
			"Sessão 'debug-api' carregada. A conversa anterior foi restaurada.\n",
			"╭── ✅ Session forked!\n│    De:   debug-api\n│    Para: experimento-v2\n│    Mensagens: 2\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──",
			"Sessão 'debug-api' deletada com sucesso do disco.\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q missing from:\n%s", lang, want, out)
			}
		}
	}
	out, _, _ := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "LANG=pt_BR.UTF-8", "CHATCLI_LANG=en"}, script)
	if !strings.Contains(out, `Saved 2 messages as session "debug-api"`) || strings.Contains(out, "Sessão") {
		t.Fatalf("CHATCLI_LANG=en over a Portuguese LANG:\n%s", out)
	}
}

// TestPortugueseBeyondTheSessionVerbs: modes, memory and the model line
// speak Portuguese too, and a failing line keeps its exit code in both
// languages.
func TestPortugueseBeyondTheSessionVerbs(t *testing.T) {
	script := "/agent\n/chat\n/memory save lembrar disso\n/memory list\n/model\n"
	out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=pt-BR"}, script)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"Modo agent: o modelo pode ler", "Modo chat: sem ferramentas", "Nota 1 salva na memória", "Provedor offline, modelo offline."} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from:\n%s", want, out)
		}
	}
	codes := map[string]int{}
	for _, lang := range []string{"CHATCLI_LANG=pt-BR", "CHATCLI_LANG=en"} {
		_, _, codes[lang] = run(t, []string{"CHATCLI_HOME=" + t.TempDir(), lang}, "/session load nosuch\n")
	}
	if codes["CHATCLI_LANG=pt-BR"] != codes["CHATCLI_LANG=en"] || codes["CHATCLI_LANG=en"] != exitNotFound {
		t.Errorf("exit codes by language: %v", codes)
	}
}
