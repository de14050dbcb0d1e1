package telegram

import (
	"context"
	"errors"
	"net/http"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/markup"
)

// maxSendAttempts bounds the retries of one sendMessage that Telegram
// answers with 429 Too Many Requests.
const maxSendAttempts = 3

// replier answers in one chat.
type replier struct {
	bot  *tgbotapi.BotAPI
	chat int64
	o    *Options
}

var _ gateway.Replier = (*replier)(nil)

// Reply sends text in parts of at most MessageLimit characters, as HTML,
// or as plain text when Telegram refuses the HTML.
func (r *replier) Reply(ctx context.Context, text string) error {
	for _, part := range gateway.Split(text, MessageLimit) {
		msg := tgbotapi.NewMessage(r.chat, markup.Convert(part, markup.Telegram))
		msg.ParseMode = tgbotapi.ModeHTML
		err := r.send(ctx, msg)
		var te *tgbotapi.Error
		if errors.As(err, &te) && te.Code == http.StatusBadRequest {
			msg.Text, msg.ParseMode = part, ""
			err = r.send(ctx, msg)
		}
		if err != nil {
			return r.o.redact(err)
		}
	}
	return nil
}

// send sends c, waiting as long as a 429 answer asks before trying again.
func (r *replier) send(ctx context.Context, c tgbotapi.Chattable) error {
	for attempt := 1; ; attempt++ {
		_, err := r.bot.Request(c)
		var te *tgbotapi.Error
		if attempt == maxSendAttempts || !errors.As(err, &te) || te.Code != http.StatusTooManyRequests {
			return err
		}
		wait := time.Duration(max(te.RetryAfter, 1)) * time.Second
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// Typing sends the "typing" chat action.
func (r *replier) Typing(context.Context) error {
	_, err := r.bot.Request(tgbotapi.NewChatAction(r.chat, tgbotapi.ChatTyping))
	return r.o.redact(err)
}
