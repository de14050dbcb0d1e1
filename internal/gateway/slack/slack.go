package slack

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Channel is the channel's name in principals and the state file.
const Channel = "slack"

// MessageLimit is the size of one reply part, in characters: a section
// block's text holds at most 3,000 (Block Kit reference, section.text).
const MessageLimit = 3000

// Options configure Run and NewEndpoint.
type Options struct {
	// Token is the bot token (CHATCLI_SLACK_BOT_TOKEN, xoxb-…).
	Token string
	// SigningSecret verifies requests (CHATCLI_SLACK_SIGNING_SECRET).
	SigningSecret string
	// Addr and Path are where the endpoint listens (CHATCLI_SLACK_ADDR,
	// CHATCLI_SLACK_PATH).
	Addr, Path string
	// APIURL is the Web API root ending in "/" (CHATCLI_SLACK_API_URL);
	// "" is Slack's.
	APIURL  string
	Handler gateway.Handler
	// State remembers the event ids served.
	State *gateway.State
	// Log receives notices, one line each; nil discards them.
	Log func(string)
	// Lang is the language of the notices (nil: English).
	Lang *i18n.Printer
}

// Endpoint is the Events API endpoint: an http.Handler serving events in
// the background until Wait.
type Endpoint struct {
	o     Options
	api   *slack.Client
	async *gateway.Async
}

// NewEndpoint returns the endpoint; events are served under ctx (a turn
// in flight is cut short when it ends).
func NewEndpoint(ctx context.Context, o Options) *Endpoint {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	var opts []slack.Option
	if o.APIURL != "" {
		opts = append(opts, slack.OptionAPIURL(o.APIURL))
	}
	return &Endpoint{o: o, api: slack.New(o.Token, opts...), async: gateway.NewAsync(ctx, o.Handler, o.Log)}
}

// Run listens on o.Addr and serves o.Path until ctx ends, then waits for
// the messages being served (gateway.ServeHTTP). Errors: the listener's.
func Run(ctx context.Context, o Options) error {
	ep := NewEndpoint(ctx, o)
	return gateway.ServeHTTP(ctx, "slack: Events API", o.Addr, o.Path, ep, ep.Wait, ep.o.Log, ep.o.Lang)
}

// Wait waits until every event accepted so far is served.
func (ep *Endpoint) Wait() { ep.async.Wait() }

// ServeHTTP verifies one request and answers it as the Events API asks.
func (ep *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, gateway.MaxRequestBytes))
	if err != nil {
		http.Error(w, "cannot read the body", http.StatusBadRequest)
		return
	}
	if err := ep.verify(r.Header, body); err != nil {
		ep.o.Log(ep.o.Lang.Sprintf("%s: request from %s refused: %v", "slack", r.RemoteAddr, err))
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
	ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
	if err != nil {
		http.Error(w, "not an Events API request", http.StatusBadRequest)
		return
	}
	switch ev.Type {
	case slackevents.URLVerification:
		var ch slackevents.ChallengeResponse
		json.Unmarshal(body, &ch) // parsed above
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, ch.Challenge)
	case slackevents.CallbackEvent:
		w.WriteHeader(http.StatusOK)
		ep.accept(ev)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// verify checks the request's signature with the signing secret.
func (ep *Endpoint) verify(h http.Header, body []byte) error {
	sv, err := slack.NewSecretsVerifier(h, ep.o.SigningSecret)
	if err != nil {
		return gateway.Redact(err, ep.o.SigningSecret)
	}
	sv.Write(body)
	return gateway.Redact(sv.Ensure(), ep.o.SigningSecret)
}

// accept serves a callback's message in the background, once per event id.
func (ep *Endpoint) accept(ev slackevents.EventsAPIEvent) {
	m, ok := message(ev.InnerEvent.Data)
	if !ok {
		return
	}
	if cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent); ok && cb.EventID != "" {
		first, err := ep.o.State.FirstSeen(Channel, cb.EventID)
		if err != nil {
			ep.o.Log("slack: " + err.Error())
		}
		if !first {
			return
		}
	}
	ep.async.Serve(m, &replier{ep: ep, channel: m.Chat})
}

// message is the gateway message of a direct message or a mention; ok is
// false for anything else (bots, edits, channel chatter).
func message(inner any) (gateway.Message, bool) {
	var user, channel, text string
	switch e := inner.(type) {
	case *slackevents.MessageEvent:
		if e.ChannelType != "im" || e.SubType != "" || e.BotID != "" {
			return gateway.Message{}, false
		}
		user, channel, text = e.User, e.Channel, e.Text
	case *slackevents.AppMentionEvent:
		if e.BotID != "" {
			return gateway.Message{}, false
		}
		user, channel, text = e.User, e.Channel, dropMention(e.Text)
	default:
		return gateway.Message{}, false
	}
	if user == "" || channel == "" {
		return gateway.Message{}, false
	}
	return gateway.Message{Principal: gateway.Principal{Channel: Channel, User: user}, Chat: channel, Text: text}, true
}

// dropMention removes the leading "<@U…>" of a mention's text.
func dropMention(text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<@") {
		if i := strings.Index(t, ">"); i > 0 {
			return strings.TrimSpace(t[i+1:])
		}
	}
	return t
}
