package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/provider"
)

// Usages of the provider and model verbs.
const (
	modelUsage  = "/model [NAME]"
	switchUsage = "/switch PROVIDER [--model NAME]"
)

// runModel is /model [NAME]: show the provider and model, or use model
// NAME of the same provider from the next turn on.
func runModel(_ context.Context, env *Env, args []string) error {
	p := env.Engine.Provider()
	switch len(args) {
	case 0:
		env.say("Provider %s, model %s. /model NAME changes the model; /switch PROVIDER the provider.\n", p.Name(), p.Model())
		return nil
	case 1:
		return switchTo(env, p.Name(), args[0], "/model")
	}
	return fmt.Errorf("%w: %s", ErrUsage, modelUsage)
}

// runSwitch is /switch PROVIDER [--model NAME]: use another provider (its
// configured or default model, or NAME) from the next turn on.
func runSwitch(_ context.Context, env *Env, args []string) error {
	model := ""
	switch {
	case len(args) == 1:
	case len(args) == 3 && args[1] == "--model":
		model = args[2]
	case len(args) == 2 && strings.HasPrefix(args[1], "--model="):
		model = strings.TrimPrefix(args[1], "--model=")
	default:
		return fmt.Errorf("%w: %s", ErrUsage, switchUsage)
	}
	return switchTo(env, strings.ToLower(args[0]), model, "/switch")
}

// switchTo builds the provider and model through env.Switch and makes the
// engine use it; env.Config, what /config shows, says by (the command)
// chose them. The history stays one conversation.
func switchTo(env *Env, name, model, by string) error {
	if env.Switch == nil {
		return i18n.Errorf("%w: the provider cannot be changed here", ErrUsage)
	}
	p, err := env.Switch(name, model)
	if err != nil {
		return err
	}
	env.Engine.SetProvider(p)
	if env.Config != nil {
		c := *env.Config // the surface's own stays as it started
		if c.Choose(name, model, by) == nil {
			env.Config = &c
		}
	}
	env.say("Now using provider %s, model %s, from the next turn; the conversation stays one history.\n", p.Name(), p.Model())
	return nil
}

// Switcher is the type of Env.Switch.
type Switcher = func(providerName, model string) (provider.Provider, error)
