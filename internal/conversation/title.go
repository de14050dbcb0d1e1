package conversation

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// MaxTitleChars is the longest title a person may give a session, in
// characters.
const MaxTitleChars = 200

// ErrNotBound is returned by verbs that act on the bound session when none
// is bound.
var ErrNotBound = errors.New("conversation: no session is bound")

// SetTitle gives the bound session the title title (shown by listings and
// the picker instead of the one derived from its first prompt) and writes
// it at once. Errors: ErrNotBound; an error naming the title when it is
// empty, holds a line break or is longer than MaxTitleChars; the write's
// errors (the title is then as before).
func (e *Engine) SetTitle(title string) error {
	if e.bound == "" {
		return i18n.Errorf("%w: /session save NAME names this conversation first", ErrNotBound)
	}
	t := strings.TrimSpace(title)
	switch {
	case t == "":
		return errors.New("conversation: the title is empty")
	case strings.ContainsAny(t, "\r\n"):
		return i18n.Errorf("conversation: title %q: one line only", t)
	case utf8.RuneCountInString(t) > MaxTitleChars:
		return i18n.Errorf("conversation: the title has %d characters, at most %d", utf8.RuneCountInString(t), MaxTitleChars)
	}
	old := e.sess.Title
	e.sess.Title = t
	if err := e.snapshot(); err != nil {
		e.sess.Title = old
		return err
	}
	return nil
}
