package slack

import (
	"context"
	"errors"
	"time"

	"github.com/slack-go/slack"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/markup"
)

// maxPostAttempts bounds the retries of one rate-limited chat.postMessage.
const maxPostAttempts = 3

// replier answers in one Slack channel.
type replier struct {
	ep      *Endpoint
	channel string
}

var _ gateway.Replier = (*replier)(nil)

// Reply posts text as mrkdwn, one message per MessageLimit characters.
func (r *replier) Reply(ctx context.Context, text string) error {
	for _, part := range gateway.Split(markup.Convert(text, markup.Slack), MessageLimit) {
		block := slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, part, false, false), nil, nil)
		if err := r.post(ctx, slack.MsgOptionText(part, false), slack.MsgOptionBlocks(block)); err != nil {
			return gateway.Redact(err, r.ep.o.Token, r.ep.o.SigningSecret)
		}
	}
	return nil
}

// post sends one chat.postMessage, waiting as a 429 answer asks.
func (r *replier) post(ctx context.Context, opts ...slack.MsgOption) error {
	for attempt := 1; ; attempt++ {
		_, _, err := r.ep.api.PostMessageContext(ctx, r.channel, opts...)
		var rl *slack.RateLimitedError
		if attempt == maxPostAttempts || !errors.As(err, &rl) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(max(rl.RetryAfter, time.Second)):
		}
	}
}

// Typing does nothing: Events API apps have no typing indicator.
func (r *replier) Typing(context.Context) error { return nil }

// Sender returns a Replier posting to channel (a Slack channel or DM id)
// with o's Token and APIURL, for messages no event asked for (chatcli
// gateway send).
func Sender(o Options, channel string) gateway.Replier {
	return &replier{ep: NewEndpoint(context.Background(), o), channel: channel}
}
