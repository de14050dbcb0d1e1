package command

import (
	"context"
	"errors"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// retryUsage is how /retry is typed.
const retryUsage = "/retry [TEXT]"

// runRetry is /retry [TEXT]: send the newest unanswered prompt (its
// request failed or was cancelled) again as a new turn, or TEXT in its
// place. The failed prompt stays in the history, marked; the request
// leaves it out (message.Request), so the model sees the prompt once.
func runRetry(ctx context.Context, env *Env, args []string) error {
	prompt, ok := unanswered(env.Engine.History())
	if !ok {
		return i18n.Errorf("%w: /retry: no prompt is left unanswered; there is nothing to resend", ErrUsage)
	}
	if len(args) > 0 {
		prompt = strings.Join(args, " ")
	}
	return RunTurn(ctx, env, prompt)
}

// unanswered returns the text of the newest prompt of h marked unanswered
// unless a later prompt with the same text (its retry) was sent since.
func unanswered(h []message.Message) (string, bool) {
	later := map[string]bool{}
	for i := len(h) - 1; i >= 0; i-- {
		m := h[i]
		if m.Role != message.RoleUser {
			continue
		}
		if m.Meta != nil && m.Meta.Unanswered && !later[m.Content] {
			return m.Content, true
		}
		later[m.Content] = true
	}
	return "", false
}

// turnFailed adds to the error of a failed turn what became of the prompt:
// a provider failure or a cancellation leaves it unanswered (see
// conversation.Engine.Turn); a stopped agent turn keeps its steps.
func turnFailed(ctx context.Context, env *Env, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil && env.Engine.Mode() != conversation.ModeChat:
		return i18n.Errorf("stopped; the steps done so far are kept, and a tool call cut short is marked interrupted: %w", err)
	case ctx.Err() != nil:
		return i18n.Errorf("cancelled; the prompt is kept, marked unanswered, and is not sent again: /retry resends it (/retry TEXT sends TEXT instead), /rewind steps back: %w", err)
	case errors.Is(err, provider.ErrProvider):
		return i18n.Errorf("%w; the prompt is kept, marked unanswered, and is not sent again: /retry resends it (/retry TEXT sends TEXT instead), /rewind steps back", err)
	}
	return err
}
