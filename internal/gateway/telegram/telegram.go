package telegram

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Channel is the channel's name in principals and the state file.
const Channel = "telegram"

// MessageLimit is the Bot API's limit of one message's text, in characters
// (sendMessage: "1-4096 characters after entities parsing").
const MessageLimit = 4096

// DefaultAPIURL is the Bot API's root.
const DefaultAPIURL = "https://api.telegram.org"

// DefaultPollTimeout is how long one getUpdates waits for an update.
const DefaultPollTimeout = 30 * time.Second

// Options configure Run.
type Options struct {
	// Token is the bot token (CHATCLI_TELEGRAM_BOT_TOKEN).
	Token string
	// APIURL is the Bot API's root (CHATCLI_TELEGRAM_API_URL); ""
	// means DefaultAPIURL. Methods are POSTed to <APIURL>/bot<token>/<method>.
	APIURL  string
	Handler gateway.Handler
	// State keeps the update offset.
	State *gateway.State
	// Log receives notices, one line each; nil discards them.
	Log func(string)
	// Lang is the language of the notices (nil: English).
	Lang *i18n.Printer
	// PollTimeout is getUpdates' timeout; 0 is DefaultPollTimeout.
	PollTimeout time.Duration
	// Backoff paces reconnections; zero is gateway.DefaultBackoff.
	Backoff gateway.Backoff
	// Recheck is how long to wait before polling again while messages are
	// served and a poll brought nothing new; 0 is DefaultRecheck.
	Recheck time.Duration
}

// ErrUnauthorized is returned by Run when Telegram refuses the bot token.
var ErrUnauthorized = errors.New("telegram: the bot token was refused (401 Unauthorized); check CHATCLI_TELEGRAM_BOT_TOKEN")

// Run polls Telegram and serves every message until ctx ends (then it
// returns nil, once the turns in flight have kept their prompts) or the
// token is refused (ErrUnauthorized). Chats are served at the same time,
// each chat's messages in order (see dispatcher); Handler keeps each
// principal's messages one at a time as well.
func Run(ctx context.Context, o Options) error {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if o.PollTimeout <= 0 {
		o.PollTimeout = DefaultPollTimeout
	}
	if o.Recheck <= 0 {
		o.Recheck = DefaultRecheck
	}
	if o.Backoff == (gateway.Backoff{}) {
		o.Backoff = gateway.DefaultBackoff()
	}
	bot, err := connect(ctx, &o)
	if bot == nil {
		return err
	}
	o.Log(o.Lang.Sprintf("telegram: polling as @%s", bot.Self.UserName))
	d := newDispatcher(ctx, &o, bot)
	defer d.wait()
	for ctx.Err() == nil {
		timeout := int(o.PollTimeout / time.Second)
		updates, err := bot.GetUpdates(tgbotapi.UpdateConfig{Offset: d.offset(), Timeout: timeout, AllowedUpdates: []string{"message"}})
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if unauthorized(err) {
				return ErrUnauthorized
			}
			o.Log(o.Lang.Sprintf("telegram: %s: %v; retrying", "getUpdates", o.redact(err)))
			if o.Backoff.Wait(ctx) != nil {
				return nil
			}
			continue
		}
		o.Backoff.Reset()
		if !d.take(updates) && d.busy() {
			d.pause()
		}
	}
	return nil
}

// connect builds the client and checks the token with getMe, retrying with
// backoff; a nil bot means Run ends with the error returned.
func connect(ctx context.Context, o *Options) (*tgbotapi.BotAPI, error) {
	root := strings.TrimRight(o.APIURL, "/")
	if root == "" {
		root = DefaultAPIURL
	}
	client := &ctxClient{c: &http.Client{Timeout: o.PollTimeout + 30*time.Second}, poll: ctx, send: context.WithoutCancel(ctx)}
	for {
		bot, err := tgbotapi.NewBotAPIWithClient(o.Token, root+"/bot%s/%s", client)
		switch {
		case err == nil:
			return bot, nil
		case ctx.Err() != nil:
			return nil, nil
		case unauthorized(err):
			return nil, ErrUnauthorized
		}
		o.Log(o.Lang.Sprintf("telegram: %s: %v; retrying", "getMe", o.redact(err)))
		if o.Backoff.Wait(ctx) != nil {
			return nil, nil
		}
	}
}

func (o *Options) redact(err error) error { return gateway.Redact(err, o.Token) }

func unauthorized(err error) bool {
	var te *tgbotapi.Error
	return errors.As(err, &te) && te.Code == http.StatusUnauthorized
}

// message is u's message as the gateway takes it; ok is false for updates
// that hold none (edits, channel posts, service messages).
func message(u tgbotapi.Update) (gateway.Message, bool) {
	m := u.Message
	if m == nil || m.From == nil || m.Chat == nil {
		return gateway.Message{}, false
	}
	text := m.Text
	if text == "" {
		text = m.Caption
	}
	return gateway.Message{Principal: gateway.Principal{Channel: Channel, User: strconv.FormatInt(m.From.ID, 10)},
		Chat: strconv.FormatInt(m.Chat.ID, 10), Text: text}, true
}

// ctxClient sends getUpdates under the poll context, so a stop ends the
// long poll at once, and every other method under the send context, so a
// reply in flight is not cut when the stop comes.
type ctxClient struct {
	c          *http.Client
	poll, send context.Context
}

func (cc *ctxClient) Do(r *http.Request) (*http.Response, error) {
	ctx := cc.send
	if strings.HasSuffix(r.URL.Path, "/getUpdates") {
		ctx = cc.poll
	}
	return cc.c.Do(r.WithContext(ctx))
}
