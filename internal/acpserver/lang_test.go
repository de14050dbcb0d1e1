package acpserver

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/jsonrpcline/linetest"
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

// TestRefusedLineNoticeSpeaksTheServersLanguage: the notice of a line
// that is not JSON is said in the server's language; the line's answer
// stays JSON-RPC's.
func TestRefusedLineNoticeSpeaksTheServersLanguage(t *testing.T) {
	for lang, want := range map[*i18n.Printer]string{
		i18n.New(i18n.English):    "acp: refused a line (-32700 ",
		i18n.New(i18n.Portuguese): "acp: linha recusada (-32700 ",
	} {
		srv, _, notices := newServer(t, nil, true)
		srv.o.Lang = lang
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- srv.Serve(context.Background(), inR, outW); outW.Close() }()
		c := linetest.NewConn(inW, outR)
		c.Send(t, "not json")
		if r := c.Next(t, 5*time.Second).Replies[0]; r.Error == nil || r.Error.Code != -32700 {
			t.Fatalf("%s: not json answered %+v", lang.Tag(), r)
		}
		inW.Close()
		<-done
		if !strings.Contains(notices.String(), want) {
			t.Errorf("%s: notices %q, want %q", lang.Tag(), notices.String(), want)
		}
	}
}

// TestAnUnsavedTurnIsSaidInTheServersLanguage: with every whole-file
// write failing (ENOSPC), the prompt's reason and the notices of the
// mirror and of the session's close say so in Portuguese, the kind of
// failure included.
func TestAnUnsavedTurnIsSaidInTheServersLanguage(t *testing.T) {
	h := startWith(t, nil, true, func(o *Options) { o.Lang = i18n.New(i18n.Portuguese) })
	id := h.newSession()
	orig := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.ENOSPC}
	}
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	_, _, err := h.prompt(id, "lost?")
	rpcError(t, err, codeInternal, "o turno não foi salvo: ")
	rpcError(t, err, codeInternal, "sem espaço no dispositivo")
	h.stop()
	for _, want := range []string{`sessão ACP s1: espelho "mcp-s1" não gravado: `, "sem espaço no dispositivo"} {
		if !strings.Contains(h.notices.String(), want) {
			t.Errorf("notices %q, want %q", h.notices.String(), want)
		}
	}
	if strings.Contains(h.notices.String(), "no space left") {
		t.Errorf("notices in English: %q", h.notices.String())
	}
}

// TestRefusedParamsSpeakTheServersLanguage: the reasons of the errors of
// a request's parameters (a relative or missing cwd, a prompt with an
// image or no text, a cursor the server never gave) are said in the
// server's language, English's unchanged, the code invalid params in
// both.
func TestRefusedParamsSpeakTheServersLanguage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	for _, c := range []struct {
		lang *i18n.Printer
		want []string
	}{
		{i18n.New(i18n.English), []string{
			`invalid params: session/new: cwd "rel" is not an absolute path`,
			`invalid params: session/new: cwd "` + missing + `": stat ` + missing + `: no such file or directory`,
			`invalid params: session/new: cwd "/etc/hostname" is not a folder`,
			"invalid params: prompt block 0: only text and resource links are supported (promptCapabilities)",
			"invalid params: the prompt holds no text",
			`invalid params: session/list: cursor "x" is not one this server gave`,
		}},
		{i18n.New(i18n.Portuguese), []string{
			`parâmetros inválidos: session/new: o cwd "rel" não é um caminho absoluto`,
			`parâmetros inválidos: session/new: cwd "` + missing + `": `,
			`parâmetros inválidos: session/new: o cwd "/etc/hostname" não é uma pasta`,
			"parâmetros inválidos: bloco 0 do prompt: só texto e links de recursos são aceitos (promptCapabilities)",
			"parâmetros inválidos: o prompt não tem texto",
			`parâmetros inválidos: session/list: o cursor "x"`,
		}},
	} {
		h := startWith(t, nil, true, func(o *Options) { o.Lang = c.lang })
		var errs []error
		for _, cwd := range []string{"rel", missing, "/etc/hostname"} {
			_, err := h.conn.NewSession(ctx(t), acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
			errs = append(errs, err)
		}
		id := h.newSession()
		_, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.ImageBlock("aGk=", "image/png")}})
		errs = append(errs, err)
		_, err = h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("  ")}})
		errs = append(errs, err)
		_, err = h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{Cursor: acp.Ptr("x")})
		errs = append(errs, err)
		for i, err := range errs {
			rpcError(t, err, codeInvalidParams, c.want[i])
		}
	}
}
