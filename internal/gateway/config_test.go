package gateway

import (
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/config"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestCheckNamesEveryMissingOrBadSetting(t *testing.T) {
	c := ConfigFromEnv(env(map[string]string{
		"CHATCLI_SLACK_SIGNING_SECRET": "s3cr3t", "CHATCLI_SLACK_ADDR": "nocolon",
		"CHATCLI_WHATSAPP_ACCESS_TOKEN": "EAAG-tok", "CHATCLI_WHATSAPP_PATH": "webhook", "CHATCLI_WHATSAPP_ALLOWED_USERS": "+5511, 4477",
	}))
	lines, err := c.Check()
	if !errors.Is(err, config.ErrConfig) {
		t.Fatalf("error %v", err)
	}
	for _, want := range []string{"CHATCLI_SLACK_BOT_TOKEN", "CHATCLI_SLACK_ADDR", "CHATCLI_WHATSAPP_PHONE_ID", "CHATCLI_WHATSAPP_VERIFY_TOKEN", "CHATCLI_WHATSAPP_PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no word of %s in\n%v", want, err)
		}
	}
	text := strings.Join(lines, "\n") + err.Error()
	if strings.Contains(text, "s3cr3t") || strings.Contains(text, "EAAG-tok") {
		t.Fatalf("a secret was shown:\n%s", text)
	}
	if !strings.Contains(text, "slack: ") || !strings.Contains(text, "answers 2 allowed ids") || !strings.Contains(text, "signatures NOT checked") {
		t.Fatalf("lines:\n%s", text)
	}
	if got := c.Allow()["whatsapp"]; len(got) != 2 || got[0] != "5511" {
		t.Fatalf("whatsapp allow-list %q", got)
	}
}

func TestCheckWantsAChannel(t *testing.T) {
	if _, err := ConfigFromEnv(env(nil)).Check(); err == nil || !strings.Contains(err.Error(), "no channel is configured") {
		t.Fatalf("%v", err)
	}
}

// TestCheckRefusesTelegramIdsThatAreNotNumbers: Telegram names a sender by
// its numeric id only, so a @username or any other word on the allow-list
// could never match; --check refuses it and says the rule.
func TestCheckRefusesTelegramIdsThatAreNotNumbers(t *testing.T) {
	c := ConfigFromEnv(env(map[string]string{"CHATCLI_TELEGRAM_BOT_TOKEN": "1:SECRET",
		"CHATCLI_TELEGRAM_ALLOWED_USERS": "42, @alice, -1001234567890, 12a, -, 99999999999999999999"}))
	_, err := c.Check()
	if !errors.Is(err, config.ErrConfig) {
		t.Fatalf("error %v, want config.ErrConfig", err)
	}
	for _, want := range []string{"CHATCLI_TELEGRAM_ALLOWED_USERS", `"@alice"`, `"12a"`, `"-"`, `"99999999999999999999"`, TelegramIDRule.String()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s not in\n%v", want, err)
		}
	}
	for _, fine := range []string{`"42"`, `"-1001234567890"`} {
		if strings.Contains(err.Error(), fine) {
			t.Errorf("the valid id %s is named in\n%v", fine, err)
		}
	}
	c = ConfigFromEnv(env(map[string]string{"CHATCLI_TELEGRAM_BOT_TOKEN": "1:SECRET", "CHATCLI_TELEGRAM_ALLOWED_USERS": "42,-1001234567890"}))
	if _, err := c.Check(); err != nil {
		t.Fatalf("numeric ids refused: %v", err)
	}
}

// TestTargetResolvesHomeChannels: a bare channel is its home channel
// (CHATCLI_<CHANNEL>_HOME_CHANNEL), CHANNEL:CHAT another chat; the errors
// name what to set.
func TestTargetResolvesHomeChannels(t *testing.T) {
	c := ConfigFromEnv(env(map[string]string{"CHATCLI_TELEGRAM_BOT_TOKEN": "1:SECRET", "CHATCLI_TELEGRAM_HOME_CHANNEL": "4242",
		"CHATCLI_WHATSAPP_ACCESS_TOKEN": "EAAG", "CHATCLI_WHATSAPP_PHONE_ID": "1055"}))
	for target, want := range map[string]string{"telegram": "telegram 4242", "Telegram:-100": "telegram -100"} {
		if ch, chat, err := c.Target(target); err != nil || ch+" "+chat != want {
			t.Errorf("Target(%q) = %s %s, %v; want %s", target, ch, chat, err, want)
		}
	}
	for target, want := range map[string]string{"whatsapp": "CHATCLI_WHATSAPP_HOME_CHANNEL", "slack:C1": "CHATCLI_SLACK_BOT_TOKEN",
		"discord": "names no channel", "telegram:": "no chat"} {
		if _, _, err := c.Target(target); !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), want) {
			t.Errorf("Target(%q): %v, want %s in it", target, err, want)
		}
	}
	c.Telegram.Home = "@me"
	if _, err := c.Check(); err == nil || !strings.Contains(err.Error(), "CHATCLI_TELEGRAM_HOME_CHANNEL") {
		t.Errorf("a @username home channel passed --check: %v", err)
	}
}
