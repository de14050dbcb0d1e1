package config

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultResumeReplay is how many messages a load or resume shows when
// CHATCLI_RESUME_REPLAY is unset.
const DefaultResumeReplay = 10

// readResumeReplay reads CHATCLI_RESUME_REPLAY: a number of messages, 0
// for none. Anything else is refused, naming the value.
func (c *Config) readResumeReplay(getenv func(string) string) error {
	c.ResumeReplay = DefaultResumeReplay
	v := getenv("CHATCLI_RESUME_REPLAY")
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return fmt.Errorf("%w: CHATCLI_RESUME_REPLAY=%q: want a number of messages (0 for none)", ErrConfig, v)
	}
	c.ResumeReplay = n
	return nil
}
