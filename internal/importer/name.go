package importer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/chatcli/chatcli/internal/session"
)

// slugChars caps the part of a name taken from the title, in bytes.
const slugChars = 40

// idChars is how many characters of the tool's id end a name: the end of
// a UUID (v4 or v7) and of an opencode id is the random part.
const idChars = 8

// BaseName is the session name a conversation is given:
// "<prefix>-<slug>-<id>", the slug made of the title's letters and digits
// (lower case, accents dropped, other runs as one '-', at most 40 bytes,
// cut at a '-'), id the last 8 letters and digits of the tool's id, lower case
// (e.g. "claude-fix-the-login-bug-4f2a9c1e"). Without a usable title the
// slug is left out. It follows session.NormalizeName's rule; when it is
// taken by another session, Writer adds "-2", "-3", … (Store.CreateUnique).
func BaseName(prefix string, c Conversation) string {
	title := c.Title
	if title == "" {
		title = session.DeriveTitle(c.Messages)
	}
	parts := []string{prefix}
	if s := slug(title); s != "" {
		parts = append(parts, s)
	}
	if id := tail(c.ID); id != "" {
		parts = append(parts, id)
	}
	name := strings.Join(parts, "-")
	if n, err := session.NormalizeName(name); err == nil {
		return n
	}
	return prefix
}

// slug is title's letters and digits, lower case, without their accents
// (the combining marks of the canonical decomposition), with every other
// run as one '-', at most slugChars bytes, cut at a '-'.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(strings.ToLower(title)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := norm.NFC.String(b.String())
	if len(s) > slugChars {
		cut := strings.LastIndexByte(s[:slugChars+1], '-')
		if cut <= 0 {
			cut = slugChars
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		s = s[:cut]
	}
	return strings.Trim(s, "-")
}

// tail is the last idChars ASCII letters and digits of id, lower case.
func tail(id string) string {
	var keep []byte
	for i := len(id) - 1; i >= 0 && len(keep) < idChars; i-- {
		if c := id[i]; c < unicode.MaxASCII && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))) {
			keep = append(keep, byte(unicode.ToLower(rune(c))))
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return string(keep)
}
