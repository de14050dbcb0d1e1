package config

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultAgentMaxSteps is how many requests one agent or coder turn may
// send when CHATCLI_AGENT_MAX_STEPS is unset.
const DefaultAgentMaxSteps = 25

// Agent holds the settings of agent and coder modes.
type Agent struct {
	// AutoExec is CHATCLI_AGENT_AUTO_EXEC (default off): run file writes
	// and commands without asking (--agent-auto-exec sets it too).
	AutoExec bool
	// MaxSteps is CHATCLI_AGENT_MAX_STEPS: the requests one agent or coder
	// turn may send before it stops (default DefaultAgentMaxSteps).
	MaxSteps int
}

// readAgent reads CHATCLI_AGENT_AUTO_EXEC and CHATCLI_AGENT_MAX_STEPS. A
// value that cannot be read is refused: one decides what runs unasked,
// the other how long a task may go on.
func (c *Config) readAgent(getenv func(string) string) error {
	c.Agent = Agent{MaxSteps: DefaultAgentMaxSteps}
	if v := getenv("CHATCLI_AGENT_AUTO_EXEC"); v != "" {
		b, err := ParseBool(v)
		if err != nil {
			return fmt.Errorf("%w: CHATCLI_AGENT_AUTO_EXEC=%q: %v", ErrConfig, v, err)
		}
		c.Agent.AutoExec = b
	}
	if v := getenv("CHATCLI_AGENT_MAX_STEPS"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 1000 {
			return fmt.Errorf("%w: CHATCLI_AGENT_MAX_STEPS=%q: want a number of requests from 1 to 1000", ErrConfig, v)
		}
		c.Agent.MaxSteps = n
	}
	return nil
}
