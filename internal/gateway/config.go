package gateway

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Config is the gateway's settings, read by ConfigFromEnv under ChatCLI's
// variable names. A channel is on when its token is set.
type Config struct {
	Telegram TelegramConfig
	Slack    SlackConfig
	WhatsApp WhatsAppConfig
	// HubThread is the hub thread every chat joins at its first message
	// (CHATCLI_HUB); "" joins none.
	HubThread string
}

// TelegramConfig is the Telegram channel's settings.
type TelegramConfig struct {
	Token   string    // CHATCLI_TELEGRAM_BOT_TOKEN
	Allow   AllowList // CHATCLI_TELEGRAM_ALLOWED_USERS
	APIURL  string    // CHATCLI_TELEGRAM_API_URL: the Bot API root
	Home    string    // CHATCLI_TELEGRAM_HOME_CHANNEL: the chat id Send delivers to by default
	Enabled bool
}

// SlackConfig is the Slack channel's settings.
type SlackConfig struct {
	Token         string    // CHATCLI_SLACK_BOT_TOKEN (xoxb-…)
	SigningSecret string    // CHATCLI_SLACK_SIGNING_SECRET
	Addr          string    // CHATCLI_SLACK_ADDR: where the Events API endpoint listens
	Path          string    // CHATCLI_SLACK_PATH
	Allow         AllowList // CHATCLI_SLACK_ALLOWED_USERS
	APIURL        string    // CHATCLI_SLACK_API_URL: the Web API root, ending in "/"
	Home          string    // CHATCLI_SLACK_HOME_CHANNEL: the channel id Send delivers to by default
	Enabled       bool
}

// WhatsAppConfig is the WhatsApp channel's settings.
type WhatsAppConfig struct {
	Token       string    // CHATCLI_WHATSAPP_ACCESS_TOKEN
	PhoneID     string    // CHATCLI_WHATSAPP_PHONE_ID: the sending number's id
	VerifyToken string    // CHATCLI_WHATSAPP_VERIFY_TOKEN: the webhook subscription's token
	AppSecret   string    // CHATCLI_WHATSAPP_APP_SECRET: checks X-Hub-Signature-256 when set
	Addr        string    // CHATCLI_WHATSAPP_ADDR
	Path        string    // CHATCLI_WHATSAPP_PATH
	Allow       AllowList // CHATCLI_WHATSAPP_ALLOWED_USERS
	GraphURL    string    // CHATCLI_WHATSAPP_GRAPH_URL: the Graph API root with its version
	Home        string    // CHATCLI_WHATSAPP_HOME_CHANNEL: the number Send delivers to by default
	Enabled     bool
}

// Defaults of the settings that have one.
const (
	DefaultSlackAddr     = "127.0.0.1:3000"
	DefaultSlackPath     = "/slack/events"
	DefaultWhatsAppAddr  = "127.0.0.1:3001"
	DefaultWhatsAppPath  = "/whatsapp/webhook"
	DefaultSlackAPIURL   = "https://slack.com/api/"
	DefaultWhatsAppGraph = "https://graph.facebook.com/v21.0"
)

// ConfigFromEnv reads the settings through getenv (environment, dotenv
// file and config file, as for every other setting).
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	var c Config
	c.HubThread = get("CHATCLI_HUB", "")
	c.Telegram = TelegramConfig{Token: get("CHATCLI_TELEGRAM_BOT_TOKEN", ""), Allow: ParseAllowList(getenv("CHATCLI_TELEGRAM_ALLOWED_USERS")),
		APIURL: get("CHATCLI_TELEGRAM_API_URL", "https://api.telegram.org"), Home: get("CHATCLI_TELEGRAM_HOME_CHANNEL", "")}
	c.Telegram.Enabled = c.Telegram.Token != ""
	c.Slack = SlackConfig{Token: get("CHATCLI_SLACK_BOT_TOKEN", ""), SigningSecret: get("CHATCLI_SLACK_SIGNING_SECRET", ""),
		Addr: get("CHATCLI_SLACK_ADDR", DefaultSlackAddr), Path: get("CHATCLI_SLACK_PATH", DefaultSlackPath),
		Allow: ParseAllowList(getenv("CHATCLI_SLACK_ALLOWED_USERS")), APIURL: get("CHATCLI_SLACK_API_URL", DefaultSlackAPIURL),
		Home: get("CHATCLI_SLACK_HOME_CHANNEL", "")}
	c.Slack.Enabled = c.Slack.Token != "" || c.Slack.SigningSecret != ""
	c.WhatsApp = WhatsAppConfig{Token: get("CHATCLI_WHATSAPP_ACCESS_TOKEN", ""), PhoneID: get("CHATCLI_WHATSAPP_PHONE_ID", ""),
		VerifyToken: get("CHATCLI_WHATSAPP_VERIFY_TOKEN", ""), AppSecret: get("CHATCLI_WHATSAPP_APP_SECRET", ""),
		Addr: get("CHATCLI_WHATSAPP_ADDR", DefaultWhatsAppAddr), Path: get("CHATCLI_WHATSAPP_PATH", DefaultWhatsAppPath),
		Allow: ParseAllowList(getenv("CHATCLI_WHATSAPP_ALLOWED_USERS")), GraphURL: get("CHATCLI_WHATSAPP_GRAPH_URL", DefaultWhatsAppGraph),
		Home: strings.TrimPrefix(get("CHATCLI_WHATSAPP_HOME_CHANNEL", ""), "+")}
	c.WhatsApp.Enabled = c.WhatsApp.Token != ""
	return c
}

// Allow is each enabled channel's allow-list, by channel name.
func (c Config) Allow() map[string]AllowList {
	out := map[string]AllowList{}
	if c.Telegram.Enabled {
		out["telegram"] = c.Telegram.Allow
	}
	if c.Slack.Enabled {
		out["slack"] = c.Slack.Allow
	}
	if c.WhatsApp.Enabled {
		out["whatsapp"] = c.WhatsApp.Allow
	}
	return out
}

// Check validates the settings without connecting anywhere. It returns
// one line per enabled channel (what it will do; never a token) and the
// problems found, each naming its variable, wrapped in config.ErrConfig; no
// channel enabled is a problem too.
func (c Config) Check() (lines []string, err error) { return c.CheckIn(nil) }

// CheckIn is Check with its lines in lang (nil: English).
func (c Config) CheckIn(lang *i18n.Printer) (lines []string, err error) {
	var errs []error
	bad := func(err error) { errs = append(errs, err) }
	checkURL := func(name, v string) {
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad(i18n.Errorf("%w: %s=%q is not an http(s) URL", config.ErrConfig, name, v))
		}
	}
	checkAddr := func(name, v string) {
		if _, _, err := net.SplitHostPort(v); err != nil {
			bad(i18n.Errorf("%w: %s=%q is not host:port (%v)", config.ErrConfig, name, v, err))
		}
	}
	need := func(name, v string, why i18n.Text) {
		if v == "" {
			bad(i18n.Errorf("%w: %s is not set%s", config.ErrConfig, name, why))
		}
	}
	checkPath := func(name, v string) {
		if !strings.HasPrefix(v, "/") {
			bad(i18n.Errorf("%w: %s=%q must start with /", config.ErrConfig, name, v))
		}
	}
	home := func(h string) string {
		if h == "" {
			return ""
		}
		return lang.Sprintf(" · home channel %s", h)
	}
	allow := func(variable string, a AllowList) string {
		if len(a) == 0 {
			return lang.Sprintf("no allow-list (%s): answers nobody", variable)
		}
		return lang.Sprintf("answers %d allowed ids (%s)", len(a), variable)
	}
	if t := c.Telegram; t.Enabled {
		checkURL("CHATCLI_TELEGRAM_API_URL", t.APIURL)
		if !strings.Contains(t.Token, ":") {
			bad(i18n.Errorf("%w: CHATCLI_TELEGRAM_BOT_TOKEN is not a bot token (<bot id>:<secret>, from @BotFather)", config.ErrConfig))
		}
		if wrong := t.Allow.nonNumeric(); len(wrong) > 0 {
			bad(i18n.Errorf("%w: CHATCLI_TELEGRAM_ALLOWED_USERS holds %s: %s", config.ErrConfig, quoteAll(wrong), TelegramIDRule))
		}
		if t.Home != "" && len(AllowList{t.Home}.nonNumeric()) > 0 {
			bad(i18n.Errorf("%w: CHATCLI_TELEGRAM_HOME_CHANNEL=%q: %s", config.ErrConfig, t.Home, TelegramIDRule))
		}
		lines = append(lines, lang.Sprintf("telegram: long polling %s · %s%s", t.APIURL, allow("CHATCLI_TELEGRAM_ALLOWED_USERS", t.Allow), home(t.Home)))
	}
	if s := c.Slack; s.Enabled {
		need("CHATCLI_SLACK_BOT_TOKEN", s.Token, i18n.Textf(" (the bot token, xoxb-…)"))
		need("CHATCLI_SLACK_SIGNING_SECRET", s.SigningSecret, i18n.Textf(": requests could not be verified"))
		checkAddr("CHATCLI_SLACK_ADDR", s.Addr)
		checkPath("CHATCLI_SLACK_PATH", s.Path)
		checkURL("CHATCLI_SLACK_API_URL", s.APIURL)
		lines = append(lines, lang.Sprintf("slack: Events API on http://%s%s · replies through %s · %s%s", s.Addr, s.Path, s.APIURL,
			allow("CHATCLI_SLACK_ALLOWED_USERS", s.Allow), home(s.Home)))
	}
	if w := c.WhatsApp; w.Enabled {
		need("CHATCLI_WHATSAPP_PHONE_ID", w.PhoneID, i18n.Textf(" (the id of the number replies are sent from)"))
		need("CHATCLI_WHATSAPP_VERIFY_TOKEN", w.VerifyToken, i18n.Textf(": the webhook subscription could not be verified"))
		checkAddr("CHATCLI_WHATSAPP_ADDR", w.Addr)
		checkPath("CHATCLI_WHATSAPP_PATH", w.Path)
		checkURL("CHATCLI_WHATSAPP_GRAPH_URL", w.GraphURL)
		sig := lang.Sprintf("signatures checked (%s)", "CHATCLI_WHATSAPP_APP_SECRET")
		if w.AppSecret == "" {
			sig = lang.Sprintf("signatures NOT checked (set %s)", "CHATCLI_WHATSAPP_APP_SECRET")
		}
		lines = append(lines, lang.Sprintf("whatsapp: webhook on http://%s%s · %s · replies through %s · %s%s", w.Addr, w.Path, sig, w.GraphURL,
			allow("CHATCLI_WHATSAPP_ALLOWED_USERS", w.Allow), home(w.Home)))
	}
	if len(lines) == 0 {
		bad(i18n.Errorf("%w: no channel is configured: set CHATCLI_TELEGRAM_BOT_TOKEN, CHATCLI_SLACK_BOT_TOKEN and CHATCLI_SLACK_SIGNING_SECRET, or CHATCLI_WHATSAPP_ACCESS_TOKEN", config.ErrConfig))
	}
	return lines, i18n.Join(errs...)
}

// Channels are the channels' names, as targets and principals name them.
var Channels = []string{"telegram", "slack", "whatsapp"}

// Target resolves where chatcli gateway send delivers: target is a
// channel's name, meaning its home channel (CHATCLI_<CHANNEL>_HOME_CHANNEL,
// as ChatCLI's @send reads it), or "<channel>:<chat>". Errors (wrapping
// config.ErrConfig): an unknown channel, one that is not configured, or a
// bare channel with no home channel set.
func (c Config) Target(target string) (channel, chat string, err error) {
	channel, chat, explicit := strings.Cut(strings.TrimSpace(target), ":")
	channel = strings.ToLower(channel)
	var enabled bool
	var homeChat, token string
	switch channel {
	case "telegram":
		enabled, homeChat, token = c.Telegram.Enabled, c.Telegram.Home, "CHATCLI_TELEGRAM_BOT_TOKEN"
	case "slack":
		enabled, homeChat, token = c.Slack.Token != "", c.Slack.Home, "CHATCLI_SLACK_BOT_TOKEN"
	case "whatsapp":
		enabled, homeChat, token = c.WhatsApp.Enabled && c.WhatsApp.PhoneID != "", c.WhatsApp.Home, "CHATCLI_WHATSAPP_ACCESS_TOKEN and CHATCLI_WHATSAPP_PHONE_ID"
	default:
		return "", "", i18n.Errorf("%w: %q names no channel (%s, or <channel>:<chat id>)", config.ErrConfig, target, strings.Join(Channels, ", "))
	}
	if !enabled {
		return "", "", i18n.Errorf("%w: %s is not configured: set %s", config.ErrConfig, channel, token)
	}
	chat = strings.TrimSpace(chat)
	if !explicit {
		chat = homeChat
		if chat == "" {
			return "", "", i18n.Errorf("%w: %s has no home channel: set %s or send to %s:<chat id>", config.ErrConfig, channel,
				"CHATCLI_"+strings.ToUpper(channel)+"_HOME_CHANNEL", channel)
		}
	}
	if chat == "" {
		return "", "", i18n.Errorf("%w: %q names no chat after the colon", config.ErrConfig, target)
	}
	return channel, chat, nil
}

// TelegramIDRule is the rule of the ids in CHATCLI_TELEGRAM_ALLOWED_USERS,
// said when one breaks it. The Bot API identifies users and chats by
// integers (User.id, Chat.id: "This number may have more than 32
// significant bits"; a group's or channel's chat id is negative) and an
// update names its sender by that id alone, so a @username could never
// match.
var TelegramIDRule = i18n.Textf("Telegram user and chat ids are integers (a user: 123456789; a group: -1001234567890), not @usernames; a user finds theirs by messaging @userinfobot")

// nonNumeric returns the ids of a that are not integers (an optional
// leading '-' and ASCII digits, at most 19 of them: an int64).
func (a AllowList) nonNumeric() []string {
	var out []string
	for _, id := range a {
		digits := strings.TrimPrefix(id, "-")
		ok := digits != "" && len(digits) <= 19
		for _, r := range digits {
			ok = ok && r >= '0' && r <= '9'
		}
		if !ok {
			out = append(out, id)
		}
	}
	return out
}

// quoteAll is ids quoted and joined by ", ".
func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// Secrets are the configured tokens and secrets, for Redact.
func (c Config) Secrets() []string {
	return []string{c.Telegram.Token, c.Slack.Token, c.Slack.SigningSecret, c.WhatsApp.Token, c.WhatsApp.VerifyToken, c.WhatsApp.AppSecret}
}
