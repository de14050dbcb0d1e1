package gateway

import (
	"slices"
	"strings"
)

// AllowList is who may talk on one channel: user ids and chat ids, as the
// platform writes them (Telegram's numeric ids, Slack's U…/C…/D… ids,
// WhatsApp numbers in international form without "+"). Empty, it allows
// nobody.
type AllowList []string

// ParseAllowList reads a list of ids separated by commas or spaces
// (CHATCLI_TELEGRAM_ALLOWED_USERS and its siblings); a leading "+" of a
// phone number is dropped.
func ParseAllowList(s string) AllowList {
	var out AllowList
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' }) {
		out = append(out, strings.TrimPrefix(f, "+"))
	}
	return out
}

// Allows reports whether m's sender or chat is on the list.
func (a AllowList) Allows(m Message) bool {
	return slices.Contains(a, m.Principal.User) || (m.Chat != "" && slices.Contains(a, m.Chat))
}
