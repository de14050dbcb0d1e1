package gateway

import (
	"context"
	"strings"
)

// Principal is one person on one channel: the unit a conversation and a
// binding belong to.
type Principal struct {
	// Channel is the channel's name: "telegram", "slack", "whatsapp".
	Channel string
	// User is the platform's id of the sender (Telegram user id, Slack
	// user id, WhatsApp phone number).
	User string
}

// String is "<channel>:<user>", the principal's key in the state file.
func (p Principal) String() string { return p.Channel + ":" + p.User }

// mirrorBase is gw-<channel>-<user> with every character a session name
// cannot hold replaced by "_".
func (p Principal) mirrorBase() string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, s)
	}
	return MirrorPrefix + clean(p.Channel) + "-" + clean(p.User)
}

// MirrorPrefix starts the names of the sessions unbound channel
// conversations are mirrored to (one of conversation.MachinePrefixes).
const MirrorPrefix = "gw-"

// Message is one text a person sent on a channel.
type Message struct {
	Principal Principal
	// Chat is where replies go: the Telegram chat id, the Slack channel,
	// the WhatsApp number.
	Chat string
	// Text is the message as typed.
	Text string
}

// Replier answers in the chat a Message came from.
type Replier interface {
	// Reply sends text, Markdown, converted to the platform's markup and
	// split to its message limit.
	Reply(ctx context.Context, text string) error
	// Typing shows that a reply is being written, where the platform has
	// such an indicator (a no-op elsewhere); errors are only logged.
	Typing(ctx context.Context) error
}
