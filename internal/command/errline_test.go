package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// providerHints are the hints of every provider.Kind, as provider.Error
// says them.
func providerHints() []string {
	var hints []string
	for k := provider.KindUnknown; k <= provider.KindContextLength; k++ {
		hints = append(hints, strings.TrimPrefix((&provider.Error{Kind: k}).Error(), ": "))
	}
	return hints
}

func TestEveryErrorKindIsInBothLanguages(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	named := map[string]bool{"some input lines failed": true} // repl.ErrScriptFailed, named by main
	named[session.NameRule] = true
	named["invalid params"] = true // a request's parameters, named by the ACP server
	for _, k := range errorKinds {
		named[k.Error()] = true
	}
	for _, h := range providerHints() {
		named[h] = true
	}
	for text := range named {
		if pt.Kind(text) == text {
			t.Errorf("error kind %q has no Portuguese line in i18n/kinds.go", text)
		}
	}
	for _, text := range i18n.KindTexts() {
		if !named[text] {
			t.Errorf("i18n/kinds.go line %q names no kind of error", text)
		}
	}
}

func TestErrorLinesNameTheirKindInPortuguese(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: %q (no file %s)", session.ErrNotFound, "nope", "/h/sessions/nope.json"),
			`sessão não encontrada: "nope" (no file /h/sessions/nope.json)`},
		{fmt.Errorf("load %q: %w", "x", fmt.Errorf("%w: /h/x.json: %w", session.ErrCorrupt, seal.ErrWrongKey)),
			`load "x": arquivo de sessão ilegível: /h/x.json: chave errada ou dados adulterados`},
		{fmt.Errorf("%w: rename: %w", session.ErrLocked, errors.New("\x1b]0;t")),
			"a sessão está travada por outro processo: rename: ^[]0;t"},
		{&provider.Error{Provider: "ollama", Kind: provider.KindUnreachable, Err: errors.New("dial tcp: refused")},
			"ollama: não foi possível conectar ao servidor; verifique a URL base e se o servidor está rodando: dial tcp: refused"},
		{fmt.Errorf("%w: use /session show [NAME]", ErrUsage), "use /session show [NAME]"},
	} {
		if got := ErrorLineIn(pt, c.err); got != c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.err, got, c.want)
		}
		if got, want := ErrorLineIn(i18n.New(i18n.English), c.err), ErrorLine(c.err); got != want {
			t.Errorf("English: %q, want %q", got, want)
		}
		if got, want := ErrorLineIn(nil, c.err), ErrorLine(c.err); got != want {
			t.Errorf("nil: %q, want %q", got, want)
		}
	}
}

// Every /help line has its Portuguese summary, and the catalog holds no
// summary that is not one.
func TestHelpSummariesAreInBothLanguages(t *testing.T) {
	real := map[string]bool{}
	for _, c := range Commands() {
		real[c.Summary] = true
	}
	for _, v := range sessionVerbs {
		real[v.summary] = true
	}
	pt := i18n.New(i18n.Portuguese)
	for s := range real {
		if pt.Summary(s) == s {
			t.Errorf("%q has no Portuguese summary", s)
		}
	}
	for _, s := range i18n.SummaryTexts() {
		if !real[s] {
			t.Errorf("catalog summary %q is no command's", s)
		}
	}
}

// A provider's own time limit running out is said in Portuguese, its
// duration as it is; a server's words stay its own.
func TestProviderTimeoutIsSaidInPortuguese(t *testing.T) {
	ctx, cancel := provider.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	err := provider.ContextError("openai", ctx, context.DeadlineExceeded)
	if got := ErrorLine(err); !strings.Contains(got, "openai: request timed out: no complete reply within 1ms") {
		t.Errorf("English: %q", got)
	}
	got := ErrorLineIn(i18n.New(i18n.Portuguese), err)
	if !strings.Contains(got, "openai: a requisição excedeu o tempo limite: nenhuma resposta completa em 1ms") {
		t.Errorf("Portuguese: %q", got)
	}
	server := provider.Classify("openai", 500, "no complete reply within 1ms", nil)
	if got := ErrorLineIn(i18n.New(i18n.Portuguese), server); !strings.Contains(got, ": no complete reply within 1ms") {
		t.Errorf("a server's words: %q", got)
	}
}
