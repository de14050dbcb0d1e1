package gateway

import (
	"errors"
	"strings"
)

// Redact returns err with every non-empty secret in its text replaced by
// "[redacted]", for errors of libraries that put a request URL holding a
// token in their messages; nil stays nil. errors.Is still sees err.
func Redact(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	clean := text
	for _, s := range secrets {
		if s != "" {
			clean = strings.ReplaceAll(clean, s, "[redacted]")
		}
	}
	if clean == text {
		return err
	}
	return &redacted{text: clean, err: err}
}

type redacted struct {
	text string
	err  error
}

func (r *redacted) Error() string { return r.text }

// Is lets errors.Is see the original chain, whose text is never shown (there
// is no Unwrap to reach it).
func (r *redacted) Is(target error) bool { return errors.Is(r.err, target) }
