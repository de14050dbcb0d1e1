package acpserver

import (
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestCommandsAndErrorsSpeakTheServersLanguage: with Options.Lang
// Portuguese, what slash commands print and the reasons of the errors
// are the REPL's Portuguese texts.
func TestCommandsAndErrorsSpeakTheServersLanguage(t *testing.T) {
	h := startWith(t, nil, true, func(o *Options) { o.Lang = i18n.New(i18n.Portuguese) })
	id := h.newSession()
	if got := h.mustPrompt(id, "/session save x"); got != "Sessão 'x' salva com sucesso.\n" {
		t.Fatalf("/session save x: %q", got)
	}
	if got := h.mustPrompt(id, "/session list"); !strings.HasPrefix(got, "NOME  MENSAGENS  ATUALIZADA") || !strings.Contains(got, "\nx *") {
		t.Fatalf("/session list: %q", got)
	}
	if got := h.mustPrompt(id, "/help"); !strings.HasPrefix(got, "Digite uma mensagem para conversar. Comandos:\n") || !strings.Contains(got, "Verbos de sessão:\n") {
		t.Fatalf("/help: %q", got)
	}
	_, _, err := h.prompt(id, "/session delete x")
	rpcError(t, err, codeInvalidParams, "deletar precisa de confirmação: /session delete x --yes")
	_, _, err = h.prompt(id, "/exit")
	rpcError(t, err, codeInvalidParams, "/exit não faz nada aqui")
	_, _, err = h.prompt("nope", "hi")
	rpcError(t, err, codeResourceNotFound, "nenhuma sessão ACP nope nesta conexão")
	_, err = h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "mcp-mine", Cwd: "/tmp", McpServers: []acp.McpServer{}})
	rpcError(t, err, codeInvalidParams, "nome de sessão reservado")
}
