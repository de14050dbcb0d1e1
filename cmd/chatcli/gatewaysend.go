package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/slack"
	"github.com/chatcli/chatcli/internal/gateway/telegram"
	"github.com/chatcli/chatcli/internal/gateway/whatsapp"
)

const gatewaySendLong = `Send TEXT (Markdown, converted and split as replies are) to a chat, as
ChatCLI's @send does, through the channel's settings (the same as chatcli
gateway; the daemon need not run). TARGET is a channel, meaning its home
channel, or CHANNEL:CHAT:
  telegram            CHATCLI_TELEGRAM_HOME_CHANNEL (a chat id: an integer)
  slack               CHATCLI_SLACK_HOME_CHANNEL (a channel id: C…, D…)
  whatsapp            CHATCLI_WHATSAPP_HOME_CHANNEL (a number: 5511999990000;
                      Meta delivers it only within 24 hours of that person's
                      last message)
  telegram:-100123    that chat instead (slack:C0123, whatsapp:5511…)
TEXT "-" reads the text from standard input.`

// newGatewaySendCmd builds `chatcli gateway send TARGET TEXT…`.
func newGatewaySendCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "send TARGET TEXT...",
		Short: "Send a message to a channel's home channel or to CHANNEL:CHAT",
		Long:  gatewaySendLong,
		Args:  argsBetween(2, -1, i18n.Textf("TARGET and TEXT")),
		RunE: func(cmd *cobra.Command, args []string) error {
			return gatewaySend(cmd, f, args[0], strings.Join(args[1:], " "))
		},
	}
}

// gatewaySend sends text to target and says where it went.
func gatewaySend(cmd *cobra.Command, f *factory, target, text string) error {
	gc := gateway.ConfigFromEnv(f.file.Getenv(f.getenv))
	channel, chat, err := gc.Target(target)
	if err != nil {
		return err
	}
	if text == "-" {
		b, err := io.ReadAll(io.LimitReader(f.streams.In, 1<<20))
		if err != nil {
			return i18n.Errorf("reading the text from standard input: %w", err)
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return i18n.Errorf("%w: the text is empty", config.ErrConfig)
	}
	ctx := cmd.Context()
	var r gateway.Replier
	switch channel {
	case "telegram":
		r, err = telegram.Sender(ctx, telegram.Options{Token: gc.Telegram.Token, APIURL: gc.Telegram.APIURL}, chat)
	case "slack":
		r = slack.Sender(slack.Options{Token: gc.Slack.Token, APIURL: gc.Slack.APIURL}, chat)
	case "whatsapp":
		w := gc.WhatsApp
		r = whatsapp.Sender(whatsapp.Options{Client: whatsapp.Client{GraphURL: w.GraphURL, PhoneID: w.PhoneID, Token: w.Token}}, chat)
	}
	if err == nil {
		err = r.Reply(ctx, text)
	}
	if err != nil {
		return gateway.Redact(fmt.Errorf("%s:%s: %w", channel, chat, err), gc.Secrets()...)
	}
	fmt.Fprintf(f.streams.Out, "sent to %s:%s\n", channel, chat)
	return nil
}
