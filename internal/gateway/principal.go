package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// mirrorBase is gw-<channel>-<user> with every character other than an
// ASCII letter, digit, '_' or '-' replaced by "_" (a '.' too, so no id
// yields "..", a trailing '.' or another name the store refuses), the
// user part cut to maxMirrorUser bytes and then ended by a hash of the
// whole id, so that a long id stays a valid name of its own.
func (p Principal) mirrorBase() string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, s)
	}
	user := clean(p.User)
	if len(user) > maxMirrorUser {
		sum := sha256.Sum256([]byte(p.User))
		user = user[:maxMirrorUser-9] + "-" + hex.EncodeToString(sum[:4])
	}
	return MirrorPrefix + clean(p.Channel) + "-" + user
}

// maxMirrorUser caps the user part of a mirror's name, in bytes: with the
// prefix, a channel name and nextMirror's suffix it stays far below
// session.MaxNameChars.
const maxMirrorUser = 64

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
