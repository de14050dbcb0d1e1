package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
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

// Sender returns a Replier sending to chat (a Telegram chat id: an
// integer) with o's Token and APIURL, for messages no update asked for
// (chatcli gateway send). It checks the token with getMe first. Errors:
// chat is not an integer, ErrUnauthorized, or getMe's (redacted).
func Sender(ctx context.Context, o Options, chat string) (gateway.Replier, error) {
	id, err := strconv.ParseInt(chat, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("telegram: chat %q: %s", chat, gateway.TelegramIDRule)
	}
	root := strings.TrimRight(o.APIURL, "/")
	if root == "" {
		root = DefaultAPIURL
	}
	client := &ctxClient{c: &http.Client{Timeout: time.Minute}, poll: ctx, send: ctx}
	bot, err := tgbotapi.NewBotAPIWithClient(o.Token, root+"/bot%s/%s", client)
	if unauthorized(err) {
		return nil, ErrUnauthorized
	}
	if err != nil {
		return nil, fmt.Errorf("telegram: getMe: %w", o.redact(err))
	}
	return &replier{bot: bot, chat: id, o: &o}, nil
}
