package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/spf13/pflag"
)

// oneShotOptions are the flags of `chatcli -p` that ChatCLI's scripts pass
// (its cli/oneshot_mode.go) and the JSON forms: --timeout and --max-tokens
// limit the request; --raw and --no-anim turn off the rendering and the
// spinner a terminal gets (the REPL's too).
type oneShotOptions struct {
	Timeout     time.Duration
	MaxTokens   int
	Raw, NoAnim bool
	// JSON and StreamJSON print the turn as JSON (oneShotReport).
	JSON, StreamJSON bool
}

func (o *oneShotOptions) addFlags(fl *pflag.FlagSet) {
	fl.DurationVar(&o.Timeout, "timeout", 0, "limit for one LLM request, such as 90s or 10m (CHATCLI_REQUEST_TIMEOUT)")
	fl.IntVar(&o.MaxTokens, "max-tokens", 0, "with -p: cap the reply at `N` tokens")
	fl.BoolVar(&o.Raw, "raw", false, "print replies as they arrive, without rendering Markdown (CHATCLI_RENDER=off)")
	fl.BoolVar(&o.NoAnim, "no-anim", false, "no spinner while waiting for the model, a compaction or a search")
	fl.BoolVar(&o.JSON, "json", false, "with -p: print one JSON object (reply, session, model, usage, tool calls, notices); schema in docs/schema/")
	fl.BoolVar(&o.StreamJSON, "stream-json", false, "with -p: print one JSON event per line (delta, tool_call, tool_result, notice, done); schema in docs/schema/")
}

// check refuses values no request can use.
func (o *oneShotOptions) check() error {
	if o.Timeout < 0 {
		return i18n.Errorf("%w: --timeout %s: want a positive duration such as 90s", errFlags, o.Timeout)
	}
	if o.JSON && o.StreamJSON {
		return i18n.Errorf("%w: --json and --stream-json exclude each other", errFlags)
	}
	if o.MaxTokens < 0 {
		return i18n.Errorf("%w: --max-tokens %d: want a positive number of tokens", errFlags, o.MaxTokens)
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
			return i18n.Errorf("%w: -p %q needs a task after %s", errFlags, o.Prompt, cmd)
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

// oneShotTurn runs the -p prompt as one turn. In chat mode the reply is
// printed as it streams; in agent and coder modes the tool loop runs to its
// end, tool activity goes to standard error one line per call, and only the
// final answer is printed. On a terminal the reply is rendered and a
// spinner shows while the model is awaited, as in the REPL (--raw,
// --no-anim, CHATCLI_RENDER=off and NO_COLOR turn them off); through a pipe
// the reply is the model's text byte for byte. With --json or --stream-json
// the report rep (attached to e) prints instead.
func oneShotTurn(ctx context.Context, o *rootOptions, e *conversation.Engine, c config.Config, rep *oneShotReport) (message.Message, error) {
	if rep != nil {
		return e.Turn(ctx, o.Prompt, rep.delta)
	}
	term, out := o.f.streams.terminal(c, o.OneShot.NoAnim, o.OneShot.Raw)
	w := command.PlainReply(out)
	if r := term.reply(); r != nil {
		w = r(out)
	}
	show := func(string) func() { return func() {} } // the spinner, on a terminal
	if p := term.progress(); p != nil {
		show = p
	}
	waiting := o.f.lang().Sprintf("waiting for the model")
	stop := show(waiting)
	defer e.SetOnToolStart(e.SetOnToolStart(func(c message.ToolCall) { // while the tool runs
		stop()
		stop = show(command.Running(o.f.lang(), c))
	}))
	prev := e.SetOnTool(nil)
	e.SetOnTool(func(a conversation.ToolActivity) { // the next request is awaited after each tool line
		stop()
		if prev != nil {
			prev(a)
		}
		stop = show(waiting)
	})
	defer e.SetOnTool(prev)
	defer e.SetOnRetried(e.SetOnRetried(func() { // a retry's notice stopped the spinner
		stop()
		stop = show(waiting)
	}))
	var onDelta func(string)
	if e.Mode() == conversation.ModeChat {
		onDelta = func(s string) { io.WriteString(w, s) }
	}
	reply, err := e.Turn(ctx, o.Prompt, onDelta)
	stop()
	if onDelta == nil && err == nil {
		io.WriteString(w, reply.Content)
	}
	w.Close()
	return reply, err
}
