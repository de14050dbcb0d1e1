package telegram

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

type failingHandler struct{}

func (failingHandler) Handle(context.Context, gateway.Message, gateway.Replier) error {
	return errors.New("boom")
}

// The notice of a message whose handling failed names its chat in the
// gateway's language, the chat id's digits never grouped.
func TestChatFailureNoticeSpeaksPortuguese(t *testing.T) {
	for lang, want := range map[string]string{"pt-BR": "telegram: no chat -1001234567890: boom", "en": "telegram: chat -1001234567890: boom"} {
		srv := telegramtest.New(token)
		g, st, log := gatewaytest.New(t, t.TempDir(), map[string]gateway.AllowList{Channel: {"42"}}, offline.New(""))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, Options{Token: token, APIURL: srv.URL, Handler: failingHandler{}, State: st, Log: log.Add, PollTimeout: time.Second,
				Lang: i18n.New(i18n.Match(lang)), Backoff: gateway.Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}})
		}()
		srv.Push(42, -1001234567890, "hi")
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(log.String(), "boom") && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		<-done
		g.Close()
		srv.Close()
		if !strings.Contains(log.String(), want) {
			t.Errorf("%s: %q missing from:\n%s", lang, want, log.String())
		}
	}
}
