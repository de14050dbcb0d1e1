package command

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

// A failed or cancelled turn's error line says in Portuguese what became
// of the prompt, not only the provider's part of it.
func TestFailedTurnHintInPortuguese(t *testing.T) {
	env, _ := resumeEnv(t)
	pt := i18n.New(i18n.Portuguese)
	failed := &provider.Error{Provider: "openai", Kind: provider.KindServer, Err: errors.New("boom")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{
		{context.Background(), "; o prompt fica na conversa, marcado sem resposta, e não é enviado de novo: /retry o reenvia (/retry TEXTO envia TEXTO no lugar), /rewind volta para antes dele"},
		{ctx, "cancelado; o prompt fica na conversa, marcado sem resposta, e não é enviado de novo: /retry o reenvia (/retry TEXTO envia TEXTO no lugar), /rewind volta para antes dele: openai: "},
	} {
		err := turnFailed(c.ctx, env, failed)
		if got := ErrorLineIn(pt, err); !strings.Contains(got, c.want) || strings.Contains(got, "marked unanswered") {
			t.Errorf("got %q\nwant it to hold %q", got, c.want)
		}
		if !errors.Is(err, provider.ErrProvider) {
			t.Errorf("%v no longer wraps the provider's error", err)
		}
		if en := err.Error(); !strings.Contains(en, "the prompt is kept, marked unanswered, and is not sent again: /retry resends it") {
			t.Errorf("English: %q", en)
		}
	}
}

// /session status of an unbound conversation is Portuguese whole.
func TestSessionStatusInPortuguese(t *testing.T) {
	env, out := resumeEnv(t)
	env.Lang = i18n.New(i18n.Portuguese)
	if err := Dispatch(context.Background(), env, "/session status"); err != nil {
		t.Fatal(err)
	}
	// CLDR's pt counts 0 in the singular, as 1 (i18n's plural.go).
	if got := out.String(); !strings.HasPrefix(got, "Nenhuma sessão vinculada (0 mensagens, nada por salvar).") {
		t.Errorf("%q", got)
	}
}

// The REPL's yes/no questions are asked in Portuguese (the keys, y and N,
// stay as they are).
func TestConfirmQuestionsInPortuguese(t *testing.T) {
	env, out := resumeEnv(t)
	env.Lang = i18n.New(i18n.Portuguese)
	env.Interactive = true
	var asked []string
	env.Confirm = func(q string) bool { asked = append(asked, q); return false }
	for _, line := range []string{"/session delete demo", "/session save draft"} {
		if err := Dispatch(context.Background(), env, line); err != nil && !strings.Contains(line, "save") {
			t.Fatalf("%s: %v", line, err)
		}
	}
	want := []string{"Deletar a sessão 'demo'?", "A sessão 'draft' já existe; substituí-la por esta conversa?"}
	if strings.Join(asked, "\n") != strings.Join(want, "\n") {
		t.Errorf("asked %q, want %q (output %q)", asked, want, out.String())
	}
}

// The rewind menu's question is asked in Portuguese (its keys stay).
func TestRewindMenuInPortuguese(t *testing.T) {
	env, _ := resumeEnv(t)
	env.Lang = i18n.New(i18n.Portuguese)
	env.Interactive = true
	for _, p := range []string{"um", "dois"} {
		if err := RunTurn(context.Background(), env, p); err != nil {
			t.Fatal(err)
		}
	}
	var asked string
	env.Ask = func(q string) (string, error) { asked = q; return "q", nil }
	if err := Dispatch(context.Background(), env, "/rewind"); err != nil {
		t.Fatal(err)
	}
	if asked != "Voltar para [1-2], q para sair: " {
		t.Errorf("asked %q", asked)
	}
}

// /session title with no session bound, and /compact's progress, are
// said in Portuguese.
func TestTitleAndCompactInPortuguese(t *testing.T) {
	env, out := resumeEnv(t)
	pt := i18n.New(i18n.Portuguese)
	env.Lang = pt
	env.Engine = conversation.New(conversation.Options{Store: env.Engine.Store(), Provider: offline.New(""), Lang: pt})
	err := Dispatch(context.Background(), env, "/session title Meu título")
	if got := ErrorLineIn(pt, err); got != "nenhuma sessão vinculada: /session save NOME dá nome a esta conversa antes" {
		t.Errorf("/session title: %q", got)
	}
	if got := ErrorLine(err); got != "no session is bound: /session save NAME names this conversation first" {
		t.Errorf("/session title in English: %q", got)
	}
	for _, p := range []string{"um", "dois", "três"} {
		if err := RunTurn(context.Background(), env, p); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	Dispatch(context.Background(), env, "/compact")
	if got := out.String(); !strings.Contains(got, "Compactando o histórico") || strings.Contains(got, "Compacting") {
		t.Errorf("/compact: %q", got)
	}
}
