package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/provider"
	"github.com/spf13/pflag"
)

// oneShotOptions are the flags of `chatcli -p` that ChatCLI's scripts pass
// (its cli/oneshot_mode.go): --timeout and --max-tokens act; --raw and
// --no-anim are what -p always does here (the reply as plain text on
// standard output, no animation), accepted so those scripts run.
type oneShotOptions struct {
	Timeout     time.Duration
	MaxTokens   int
	Raw, NoAnim bool
}

func (o *oneShotOptions) addFlags(fl *pflag.FlagSet) {
	fl.DurationVar(&o.Timeout, "timeout", 0, "limit for one LLM request, such as 90s or 10m (CHATCLI_REQUEST_TIMEOUT)")
	fl.IntVar(&o.MaxTokens, "max-tokens", 0, "with -p: cap the reply at `N` tokens")
	fl.BoolVar(&o.Raw, "raw", false, "print replies as they arrive, without rendering Markdown (CHATCLI_RENDER=off)")
	fl.BoolVar(&o.NoAnim, "no-anim", false, "no spinner while waiting for the model, a compaction or a search")
}

// check refuses values no request can use.
func (o *oneShotOptions) check() error {
	if o.Timeout < 0 {
		return fmt.Errorf("%w: --timeout %s: want a positive duration such as 90s", errFlags, o.Timeout)
	}
	if o.MaxTokens < 0 {
		return fmt.Errorf("%w: --max-tokens %d: want a positive number of tokens", errFlags, o.MaxTokens)
	}
	return nil
}

// promptMode handles a -p prompt that starts with /agent or /coder, as
// ChatCLI runs it: the rest is the task, run in that mode.
func promptMode(o *rootOptions) error {
	for cmd, set := range map[string]*bool{"/agent": &o.Agent, "/coder": &o.Coder} {
		rest, ok := strings.CutPrefix(strings.TrimSpace(o.Prompt), cmd)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' {
			continue
		}
		if strings.TrimSpace(rest) == "" {
			return fmt.Errorf("%w: -p %q needs a task after %s", errFlags, o.Prompt, cmd)
		}
		*set, o.Prompt = true, strings.TrimSpace(rest)
	}
	return nil
}

// cappedProvider sends every request with MaxTokens when it sets none.
type cappedProvider struct {
	provider.Provider
	maxTokens int
}

var _ provider.Provider = cappedProvider{}

func (p cappedProvider) Chat(ctx context.Context, req provider.Request, onDelta func(string)) (provider.Response, error) {
	if req.MaxTokens <= 0 {
		req.MaxTokens = p.maxTokens
	}
	return p.Provider.Chat(ctx, req, onDelta)
}
