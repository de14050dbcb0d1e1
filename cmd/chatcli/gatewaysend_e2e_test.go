package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/gateway/slack/slacktest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/gateway/whatsapp/whatsapptest"
)

// TestConfigShowsTheGatewaySettingsWithoutSecrets: chatcli config lists
// every gateway setting; the tokens and secrets only as "set".
func TestConfigShowsTheGatewaySettingsWithoutSecrets(t *testing.T) {
	secrets := map[string]string{"CHATCLI_TELEGRAM_BOT_TOKEN": "1:TG-TOKEN-VALUE", "CHATCLI_SLACK_BOT_TOKEN": "xoxb-SLACK-VALUE",
		"CHATCLI_SLACK_SIGNING_SECRET": "SIGNING-VALUE", "CHATCLI_WHATSAPP_ACCESS_TOKEN": "EAAG-WA-VALUE",
		"CHATCLI_WHATSAPP_VERIFY_TOKEN": "VERIFY-VALUE", "CHATCLI_WHATSAPP_APP_SECRET": "APP-SECRET-VALUE"}
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_TELEGRAM_ALLOWED_USERS=42", "CHATCLI_TELEGRAM_HOME_CHANNEL=4242", "CHATCLI_HUB=team"}
	for k, v := range secrets {
		env = append(env, k+"="+v)
	}
	out, errOut, code := run(t, env, "", "config")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for k, v := range secrets {
		if strings.Contains(out+errOut, v) {
			t.Fatalf("chatcli config shows %s's value:\n%s", k, out)
		}
		if !regexp.MustCompile(`(?m)^` + k + `\s+set\s+environment$`).MatchString(out) {
			t.Errorf("no line %s set environment in\n%s", k, out)
		}
	}
	for _, want := range []string{`(?m)^CHATCLI_TELEGRAM_ALLOWED_USERS\s+42\s+environment$`, `(?m)^CHATCLI_TELEGRAM_HOME_CHANNEL\s+4242\s`,
		`(?m)^CHATCLI_HUB\s+team\s`, `(?m)^CHATCLI_SLACK_ADDR\s+127.0.0.1:3000\s+default$`, `(?m)^CHATCLI_WHATSAPP_HOME_CHANNEL\s+not set`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no line %s in\n%s", want, out)
		}
	}
}

// TestGatewaySendDeliversToTheHomeChannel: chatcli gateway send CHANNEL
// delivers to CHATCLI_<CHANNEL>_HOME_CHANNEL through each platform's API
// (fakes on 127.0.0.1), CHANNEL:CHAT to another chat; with no home channel
// the error names the variable.
func TestGatewaySendDeliversToTheHomeChannel(t *testing.T) {
	tg := telegramtest.New(telegramToken)
	defer tg.Close()
	sl := slacktest.New("xoxb-SEND-SECRET")
	defer sl.Close()
	wa := whatsapptest.New("EAAG-SEND-SECRET", "1055")
	defer wa.Close()
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_TELEGRAM_BOT_TOKEN=" + telegramToken, "CHATCLI_TELEGRAM_API_URL=" + tg.URL,
		"CHATCLI_SLACK_BOT_TOKEN=xoxb-SEND-SECRET", "CHATCLI_SLACK_API_URL=" + sl.APIURL(),
		"CHATCLI_WHATSAPP_ACCESS_TOKEN=EAAG-SEND-SECRET", "CHATCLI_WHATSAPP_PHONE_ID=1055", "CHATCLI_WHATSAPP_GRAPH_URL=" + wa.GraphURL()}

	_, errOut, code := run(t, env, "", "gateway", "send", "telegram", "hello")
	if code != exitUsage || !strings.Contains(errOut, "CHATCLI_TELEGRAM_HOME_CHANNEL") {
		t.Fatalf("no home channel: exit %d\n%s", code, errOut)
	}
	env = append(env, "CHATCLI_TELEGRAM_HOME_CHANNEL=4242", "CHATCLI_SLACK_HOME_CHANNEL=C0HOME", "CHATCLI_WHATSAPP_HOME_CHANNEL=+5511999990000")
	out, errOut, code := run(t, env, "", "gateway", "send", "telegram", "the", "build", "is", "**green**")
	if code != 0 || !strings.Contains(out, "sent to telegram:4242") {
		t.Fatalf("send telegram: exit %d\n%s\n%s", code, out, errOut)
	}
	if s := tg.Sent(); len(s) != 1 || s[0].ChatID != 4242 || s[0].Text != "the build is <b>green</b>" {
		t.Fatalf("telegram got %+v", s)
	}
	if _, errOut, code := run(t, env, "", "gateway", "send", "telegram:-100777", "to a group"); code != 0 || tg.Sent()[1].ChatID != -100777 {
		t.Fatalf("send telegram:-100777: exit %d %+v\n%s", code, tg.Sent(), errOut)
	}
	if _, errOut, code := run(t, env, "", "gateway", "send", "slack", "to slack"); code != 0 || len(sl.Posts()) != 1 || sl.Posts()[0].Channel != "C0HOME" {
		t.Fatalf("send slack: exit %d %+v\n%s", code, sl.Posts(), errOut)
	}
	if _, errOut, code := run(t, env, "whatsapp text\n", "gateway", "send", "whatsapp", "-"); code != 0 || len(wa.Sent()) != 1 ||
		wa.Sent()[0].To != "5511999990000" || !strings.Contains(wa.Sent()[0].Body, "whatsapp text") {
		t.Fatalf("send whatsapp: exit %d %+v\n%s", code, wa.Sent(), errOut)
	}
	_, errOut, code = run(t, env, "", "gateway", "send", "telegram:@someone", "x")
	if code == 0 || !strings.Contains(errOut, "integers") || strings.Contains(errOut, telegramToken) {
		t.Fatalf("a @username target: exit %d\n%s", code, errOut)
	}
}

// TestWrongArgumentCountIsBadUsage: `gateway send` without its TEXT and
// `session tree` with two names exit 2, as README's exit codes say for bad
// usage, with a line saying what the command takes.
func TestWrongArgumentCountIsBadUsage(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "send", "telegram"}, "chatcli gateway send takes TARGET and TEXT (got 1)"},
		{[]string{"gateway", "send"}, "chatcli gateway send takes TARGET and TEXT (got 0)"},
		{[]string{"session", "tree", "a", "b"}, "chatcli session tree takes at most one session NAME (got 2)"},
	} {
		if _, errOut, code := run(t, env, "", c.args...); code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errOut)
		}
	}
}
