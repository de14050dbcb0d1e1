package retention

import (
	"errors"
	"fmt"

	"github.com/chatcli/chatcli/internal/session"
)

// Restore brings session name back from the trash (session.Store.Restore)
// and, for a machine-made session (MachinePrefix), saves it once more so
// that its stored updated_at is now: the TTL and keep-count rules, which
// go by updated_at, would otherwise send it straight back to the trash at
// the next pass. A session a person named comes back byte for byte. A
// restored machine session that is damaged or too new is left as restored
// (the rules never remove an unreadable session). Errors: those of Restore, and
// of the save, which names the session.
func Restore(st *session.Store, name string) error {
	if err := st.Restore(name); err != nil {
		return err
	}
	if MachinePrefix(name) == "" {
		return nil
	}
	err := st.Update(name, func(cur *session.Session) (*session.Session, error) { return cur, nil })
	if errors.Is(err, session.ErrCorrupt) || errors.Is(err, session.ErrTooNew) {
		return nil // never removed by a rule, never rewritten
	}
	if err != nil {
		return fmt.Errorf("retention: restored %q, but could not refresh its age (the next pass may trash it again): %w", name, err)
	}
	return nil
}
