package whatsapp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/markup"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Channel is the channel's name in principals and the state file.
const Channel = "whatsapp"

// MessageLimit is the Cloud API's limit of a text message's body, in
// characters.
const MessageLimit = 4096

// Options configure Run and NewEndpoint.
type Options struct {
	Client Client
	// VerifyToken answers the subscription check
	// (CHATCLI_WHATSAPP_VERIFY_TOKEN); AppSecret, when set, checks
	// X-Hub-Signature-256 (CHATCLI_WHATSAPP_APP_SECRET).
	VerifyToken, AppSecret string
	// Addr and Path are where the webhook listens (CHATCLI_WHATSAPP_ADDR,
	// CHATCLI_WHATSAPP_PATH).
	Addr, Path string
	Handler    gateway.Handler
	// State remembers the message ids served.
	State *gateway.State
	// Log receives notices, one line each; nil discards them.
	Log func(string)
	// Lang is the language of the notices (nil: English).
	Lang *i18n.Printer
}

// Endpoint is the webhook: an http.Handler serving messages in the
// background until Wait.
type Endpoint struct {
	o     Options
	async *gateway.Async
}

// NewEndpoint returns the webhook; messages are served under ctx.
func NewEndpoint(ctx context.Context, o Options) *Endpoint {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	return &Endpoint{o: o, async: gateway.NewAsync(ctx, o.Handler, o.Log)}
}

// Run listens on o.Addr and serves o.Path until ctx ends, then waits for
// the messages being served (gateway.ServeHTTP). Errors: the listener's.
func Run(ctx context.Context, o Options) error {
	ep := NewEndpoint(ctx, o)
	return gateway.ServeHTTP(ctx, "whatsapp: webhook", o.Addr, o.Path, ep, ep.Wait, ep.o.Log, ep.o.Lang)
}

// Wait waits until every message accepted so far is served.
func (ep *Endpoint) Wait() { ep.async.Wait() }

// ServeHTTP answers the subscription check and notifications.
func (ep *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		q := r.URL.Query()
		if ep.o.VerifyToken == "" || q.Get("hub.mode") != "subscribe" ||
			subtle.ConstantTimeCompare([]byte(q.Get("hub.verify_token")), []byte(ep.o.VerifyToken)) != 1 {
			http.Error(w, "verification failed", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, q.Get("hub.challenge"))
	case http.MethodPost:
		body, err := io.ReadAll(io.LimitReader(r.Body, gateway.MaxRequestBytes))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		if !ep.signed(r.Header.Get("X-Hub-Signature-256"), body) {
			ep.o.Log(ep.o.Lang.Sprintf("%s: request from %s refused: %v", "whatsapp", r.RemoteAddr, ep.o.Lang.Sprintf("bad %s", "X-Hub-Signature-256")))
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusOK)
		ep.accept(body)
	default:
		http.Error(w, "GET or POST", http.StatusMethodNotAllowed)
	}
}

// signed checks X-Hub-Signature-256 when an app secret is configured.
func (ep *Endpoint) signed(header string, body []byte) bool {
	if ep.o.AppSecret == "" {
		return true
	}
	got, err := hex.DecodeString(strings.TrimPrefix(header, "sha256="))
	if err != nil || !strings.HasPrefix(header, "sha256=") {
		return false
	}
	mac := hmac.New(sha256.New, []byte(ep.o.AppSecret))
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// notification is the part of a webhook notification read here.
type notification struct {
	Object string `json:"object"`
	Entry  []struct {
		Changes []struct {
			Value struct {
				Messages []struct {
					From string `json:"from"`
					ID   string `json:"id"`
					Type string `json:"type"`
					Text struct {
						Body string `json:"body"`
					} `json:"text"`
				} `json:"messages"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

// accept serves the text messages of a notification, each id once.
func (ep *Endpoint) accept(body []byte) {
	var n notification
	if err := json.Unmarshal(body, &n); err != nil || n.Object != "whatsapp_business_account" {
		return
	}
	for _, e := range n.Entry {
		for _, c := range e.Changes {
			for _, m := range c.Value.Messages {
				if m.Type != "text" || m.From == "" || m.ID == "" {
					continue
				}
				if first, err := ep.o.State.FirstSeen(Channel, m.ID); err != nil {
					ep.o.Log("whatsapp: " + err.Error())
				} else if !first {
					continue
				}
				msg := gateway.Message{Principal: gateway.Principal{Channel: Channel, User: m.From}, Chat: m.From, Text: m.Text.Body}
				ep.async.Serve(msg, &replier{ep: ep, to: m.From, messageID: m.ID})
			}
		}
	}
}

// replier answers one sender.
type replier struct {
	ep        *Endpoint
	to        string
	messageID string
	typed     bool
}

var _ gateway.Replier = (*replier)(nil)

// Reply sends text in WhatsApp's formatting, MessageLimit characters a
// message.
func (r *replier) Reply(ctx context.Context, text string) error {
	for _, part := range gateway.Split(markup.Convert(text, markup.WhatsApp), MessageLimit) {
		if err := r.ep.o.Client.SendText(ctx, r.to, part); err != nil {
			return err
		}
	}
	return nil
}

// Typing shows the typing indicator once: it lasts until the reply.
func (r *replier) Typing(ctx context.Context) error {
	if r.typed {
		return nil
	}
	r.typed = true
	return r.ep.o.Client.Typing(ctx, r.messageID)
}

// Sender returns a Replier sending to the number to through o.Client, for
// messages no webhook asked for (chatcli gateway send). The Cloud API
// delivers such a text only within 24 hours of the person's last message
// (outside it a template is required, and Meta answers with an error).
func Sender(o Options, to string) gateway.Replier {
	return &replier{ep: &Endpoint{o: o}, to: strings.TrimPrefix(to, "+"), typed: true}
}
