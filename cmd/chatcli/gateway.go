package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/slack"
	"github.com/chatcli/chatcli/internal/gateway/telegram"
	"github.com/chatcli/chatcli/internal/gateway/whatsapp"
	"github.com/chatcli/chatcli/internal/hub"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/retention"
)

const gatewayLong = `chatcli gateway connects chat platforms to chatcli's conversations: the same
provider, store, journal and sessions as the REPL, mcp-server and acp, so a
conversation started in the terminal continues in a chat and back. It runs
until SIGTERM or Ctrl-C; a turn in flight is then cut short with its prompt
kept. --check validates the settings without connecting.

Each person (a principal: channel + user id) has a conversation of their own,
mirrored after every turn to the session gw-<channel>-<user> (these expire
like autosaves: CHATCLI_SESSION_TTL, CHATCLI_SESSION_AUTOSAVE_KEEP; off with
CHATCLI_MCP_SESSION_AUTOSAVE=off). In the chat:
  /session attach NAME   continue session NAME (created when missing)
  /session detach        stop writing to it, keep the conversation
  /session status        which session this chat is bound to
  /session save NAME     save the conversation as NAME and bind to it
  /session list          the saved sessions
  /session new           start an empty conversation
  /help                  these commands
  /hub join NAME         see live the turns of hub thread NAME's members
  /hub leave, /hub       leave it; which thread this chat is in
Bindings survive a restart (CHATCLI_HOME/gateway/state.json). Sessions cannot
be deleted from a chat.

Conversation Hub: chats and terminals (chatcli's /hub join NAME) in one hub
thread see each other's turns as they end; a member joining later is shown
the last 20. /session new, load and attach start a new epoch of the thread:
earlier turns are no longer relayed. Nothing of it is stored (the sessions
are the record). CHATCLI_HUB=NAME joins every chat, and every REPL started
with it, to thread NAME. The relay runs in this daemon; other processes
reach it at CHATCLI_HOME/gateway/hub.sock.

Who may talk: each channel answers only the user or chat ids of its
allow-list; without one it answers nobody. Others get no reply (logged once).

Telegram (Bot API, long polling):
  CHATCLI_TELEGRAM_BOT_TOKEN       the token @BotFather gives
  CHATCLI_TELEGRAM_ALLOWED_USERS   user or chat ids, comma-separated
  CHATCLI_TELEGRAM_API_URL         the Bot API root (https://api.telegram.org)

Slack (Events API: point the app's Request URL at this endpoint, behind an
HTTPS proxy; subscribe to message.im and app_mention; scope chat:write):
  CHATCLI_SLACK_BOT_TOKEN          the bot token (xoxb-...)
  CHATCLI_SLACK_SIGNING_SECRET     verifies every request
  CHATCLI_SLACK_ADDR               listen address (127.0.0.1:3000)
  CHATCLI_SLACK_PATH               endpoint path (/slack/events)
  CHATCLI_SLACK_ALLOWED_USERS      user or channel ids (U..., D..., C...)
  CHATCLI_SLACK_API_URL            the Web API root (https://slack.com/api/)

WhatsApp (Cloud API: point the app's webhook at this endpoint, behind an
HTTPS proxy, and subscribe it to messages):
  CHATCLI_WHATSAPP_ACCESS_TOKEN    the access token
  CHATCLI_WHATSAPP_PHONE_ID        the id of the number replies come from
  CHATCLI_WHATSAPP_VERIFY_TOKEN    answers the webhook's subscription check
  CHATCLI_WHATSAPP_APP_SECRET      checks X-Hub-Signature-256 (recommended)
  CHATCLI_WHATSAPP_ADDR            listen address (127.0.0.1:3001)
  CHATCLI_WHATSAPP_PATH            webhook path (/whatsapp/webhook)
  CHATCLI_WHATSAPP_ALLOWED_USERS   phone numbers (5511999990000)
  CHATCLI_WHATSAPP_GRAPH_URL       the Graph API root
                                   (https://graph.facebook.com/v21.0)

Home channels (as ChatCLI's @send reads them): chatcli gateway send CHANNEL
TEXT delivers to CHATCLI_TELEGRAM_HOME_CHANNEL, CHATCLI_SLACK_HOME_CHANNEL or
CHATCLI_WHATSAPP_HOME_CHANNEL; CHANNEL:CHAT to another chat.

Tokens and secrets are never printed, logged or shown by chatcli config.`

// gatewayOptions are the flags of `chatcli gateway`.
type gatewayOptions struct {
	f               *factory
	Provider, Model string
	Check           bool
}

// newGatewayCmd builds `chatcli gateway`. runF, when not nil, replaces the
// run function (tests of flag parsing).
func newGatewayCmd(f *factory, runF func(*gatewayOptions) error) *cobra.Command {
	o := &gatewayOptions{f: f}
	cmd := &cobra.Command{
		Use:   "gateway",
		Short: "Serve conversations on Telegram, Slack and WhatsApp",
		Long:  gatewayLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Provider, o.Model = serverFlags(cmd)
			if runF != nil {
				return runF(o)
			}
			return gatewayRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Check, "check", false, "validate the settings and exit, connecting nowhere")
	cmd.AddCommand(newGatewaySendCmd(f))
	return cmd
}

// gatewayRun checks the settings and, without --check, serves every
// configured channel until ctx ends, then keeps every conversation.
func gatewayRun(ctx context.Context, o *gatewayOptions) error {
	c, err := o.f.config(o.Provider, o.Model)
	if err != nil {
		return err
	}
	gc := gateway.ConfigFromEnv(o.f.file.Getenv(o.f.getenv))
	lang := o.f.lang()
	lines, err := gc.CheckIn(lang)
	s := o.f.streams
	for _, l := range lines {
		fmt.Fprintln(s.Err, l)
	}
	if err != nil {
		return err
	}
	p, err := o.f.provider(c)
	if err != nil {
		return err
	}
	if o.Check {
		lang.Fprintf(s.Out, "gateway settings are valid\n")
		return nil
	}
	state, err := gateway.OpenState(c.Home)
	if err != nil {
		return err
	}
	logf := func(line string) {
		o.f.note(gateway.Redact(errors.New(line), gc.Secrets()...).Error())
	}
	defer serverStart(ctx, o.f, c)()
	mark, release := markOpen(c.Home, lang, logf)
	defer release()
	relay := hub.NewRelay()
	g := gateway.New(gateway.Options{State: state, Allow: gc.Allow(), Mirror: c.MCPAutosave, Log: logf, Lang: lang,
		NewEngine: func() (*conversation.Engine, error) { return o.f.engine(c) }, OnMirror: mark,
		Hub: relay, HubThread: gc.HubThread})
	logf(lang.Sprintf("chatcli %s gateway · provider %s · model %s · store %s", version, p.Name(), p.Model(), c.Home))
	go func() {
		path := hub.SocketPath(c.Home)
		logf(lang.Sprintf("hub: terminals join with /hub join NAME (relay at %s)", path))
		if err := relay.Serve(ctx, path); err != nil {
			logf(lang.Sprintf("hub: other processes cannot join: %v", lang.Error(err, nil)))
		}
	}()
	var channels []func(context.Context) error
	if gc.Telegram.Enabled {
		channels = append(channels, func(ctx context.Context) error {
			return telegram.Run(ctx, telegram.Options{Token: gc.Telegram.Token, APIURL: gc.Telegram.APIURL, Handler: g, State: state, Log: logf, Lang: lang})
		})
	}
	if gc.Slack.Enabled {
		channels = append(channels, func(ctx context.Context) error {
			return slack.Run(ctx, slack.Options{Token: gc.Slack.Token, SigningSecret: gc.Slack.SigningSecret, Addr: gc.Slack.Addr, Path: gc.Slack.Path,
				APIURL: gc.Slack.APIURL, Handler: g, State: state, Log: logf, Lang: lang})
		})
	}
	if w := gc.WhatsApp; w.Enabled {
		channels = append(channels, func(ctx context.Context) error {
			return whatsapp.Run(ctx, whatsapp.Options{Client: whatsapp.Client{GraphURL: w.GraphURL, PhoneID: w.PhoneID, Token: w.Token},
				VerifyToken: w.VerifyToken, AppSecret: w.AppSecret, Addr: w.Addr, Path: w.Path, Handler: g, State: state, Log: logf, Lang: lang})
		})
	}
	return errors.Join(runAll(ctx, channels), g.Close())
}

// runAll runs every channel until ctx ends; the first that fails stops the
// others.
func runAll(ctx context.Context, channels []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(channels))
	for i, run := range channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = run(ctx); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// markOpen returns mark, which marks each mirror it is told of open
// (retention then leaves it alone while the process runs; safe for
// concurrent use), and release, which removes every mark.
func markOpen(home string, lang *i18n.Printer, logf func(string)) (mark func(name string), release func()) {
	var mu sync.Mutex
	marked := map[string]*retention.Marker{}
	mark = func(name string) {
		mu.Lock()
		defer mu.Unlock()
		if marked[name] != nil {
			return
		}
		m := retention.NewMarker(home)
		if err := m.Set(name); err != nil {
			logf(lang.Sprintf("could not mark session %q open: %v", name, lang.Error(err, nil)))
			return
		}
		marked[name] = m
	}
	release = func() {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range marked {
			m.Close()
		}
	}
	return mark, release
}
