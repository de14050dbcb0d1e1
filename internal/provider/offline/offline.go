// Package offline is the built-in provider used when no LLM is configured.
// It is not a model: it calls no service and understands nothing. Every
// reply is a fixed, clearly labelled echo,
//
//	[offline] reply #N to: <last user prompt, clipped to 60 characters>
//
// where N is the number of user messages in the request. Offered tools
// (Request.Tools) are never called: in agent and coder modes the offline
// provider still answers with text only, so a tool loop ends after one
// step. The same request
// always gets the same reply, so every session feature (saving, forking,
// compaction, rewind) works and can be tested on a machine with no network
// and no key.
package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// Name is the provider name this package reports.
const Name = "offline"

// DefaultModel is the model name reported when New is given "".
const DefaultModel = "offline"

// promptChars is how many characters of the prompt a reply quotes.
const promptChars = 60

// chunks is how many onDelta calls a reply is streamed in, at most.
const chunks = 4

// Client is the offline provider. It is safe for concurrent use.
type Client struct {
	model string
}

var _ provider.Provider = (*Client)(nil)

// New returns an offline provider reporting model as its model name
// (DefaultModel when model is empty).
func New(model string) *Client {
	if model == "" {
		model = DefaultModel
	}
	return &Client{model: model}
}

// Name returns "offline".
func (c *Client) Name() string { return Name }

// Model returns the model name given to New.
func (c *Client) Model() string { return c.model }

// Chat returns the deterministic reply for req (see the package doc),
// streamed through onDelta in up to four pieces split after spaces.
// MaxTokens is ignored. Usage is an estimate, not a count: one token per
// four bytes (rounded up) of the request's message contents and of the
// reply. When ctx ends before the reply is complete the error is a
// *provider.Error of KindCanceled or KindTimeout and no reply is returned.
func (c *Client) Chat(ctx context.Context, req provider.Request, onDelta func(text string)) (provider.Response, error) {
	users, prompt, inBytes := 0, "", 0
	for _, m := range req.Messages {
		inBytes += len(m.Content)
		for _, tc := range m.ToolCalls {
			inBytes += len(tc.Name) + len(tc.Arguments)
		}
		if m.Role == message.RoleUser {
			users++
			prompt = m.Content
		}
	}
	reply := fmt.Sprintf("[offline] reply #%d to: %s", users, message.Clip(prompt, promptChars))
	for _, piece := range split(reply, chunks) {
		if err := ctx.Err(); err != nil {
			return provider.Response{}, provider.ContextError(Name, ctx, err)
		}
		if onDelta != nil {
			onDelta(piece)
		}
	}
	if err := ctx.Err(); err != nil {
		return provider.Response{}, provider.ContextError(Name, ctx, err)
	}
	return provider.Response{
		Message:    message.Message{Role: message.RoleAssistant, Content: reply},
		Usage:      provider.Usage{InputTokens: estimate(inBytes), OutputTokens: estimate(len(reply))},
		StopReason: "stop",
	}, nil
}

// split cuts s after spaces into at most n pieces of about as many words
// each; the pieces concatenate to s.
func split(s string, n int) []string {
	words := strings.SplitAfter(s, " ")
	per := (len(words) + n - 1) / n
	var out []string
	for i := 0; i < len(words); i += per {
		out = append(out, strings.Join(words[i:min(i+per, len(words))], ""))
	}
	return out
}

// estimate is a token count for n bytes of text: n/4 rounded up.
func estimate(n int) int { return (n + 3) / 4 }
