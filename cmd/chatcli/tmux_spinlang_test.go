package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSpinnerSpeaksPortuguese: with CHATCLI_LANG=pt-BR the spinner says
// what it waits for in Portuguese, in the REPL while the model is awaited
// and with -p while a tool runs.
func TestSpinnerSpeaksPortuguese(t *testing.T) {
	needTmux(t)
	slow := slowServer(t, 3*time.Second, "chegou a resposta")
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-spinpt-%d", os.Getpid())}
	s.start(120, 40, "OPENAI_BASE_URL="+slow.URL+"/v1", "OPENAI_MODEL=m", "CHATCLI_LANG=pt-BR")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "pergunta lenta", "Enter")
	s.waitFor("aguardando o modelo… 1s")
	if scr := s.waitFor("chegou a resposta"); strings.Contains(scr, "aguardando o modelo") {
		t.Fatalf("the spinner is still on screen after the text arrived:\n%s", scr)
	}

	tool := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"c_sleep", "run_command", map[string]string{"command": "sleep 3"}}}},
		{Text: "Dormi bem."},
	}, nil)
	p := tmuxSession{t: t, name: fmt.Sprintf("chatcli-toolspinpt-%d", os.Getpid()), dir: t.TempDir(),
		args: []string{"--agent-auto-exec", "--agent", "-p", "durma um pouco"}}
	p.start(120, 40, "OPENAI_BASE_URL="+tool.URL+"/v1", "OPENAI_MODEL=m", "CHATCLI_LANG=pt-BR")
	p.waitFor("executando run_command… 1s")
	p.waitFor("Dormi bem.")
}
