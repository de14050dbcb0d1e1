package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatcli/chatcli/internal/message"
)

// Provider is one LLM service.
type Provider interface {
	// Name is the provider's identifier: "openai", "anthropic" or "offline".
	Name() string
	// Model is the model requests go to, e.g. "gpt-4o-mini".
	Model() string
	// Chat sends the request and streams the reply. onDelta (may be nil) is
	// called with each text fragment in order, from the calling goroutine
	// or one other goroutine, never concurrently. Errors are *Error.
	Chat(ctx context.Context, req Request, onDelta func(text string)) (Response, error)
}

// Request is one chat completion request.
type Request struct {
	// Messages is the history to send, already passed through
	// message.Request (no meta, no consecutive user messages). System
	// messages may appear anywhere; providers without mid-conversation
	// system messages convert them as their format.go documents.
	Messages []message.Message
	// MaxTokens caps the reply length in tokens; 0 means the provider's
	// default.
	MaxTokens int
	// Tools are offered to the model for this reply; empty means no tool
	// calling. A reply that calls tools has Message.ToolCalls (several
	// when the model calls them in parallel), each with the id the result
	// must answer with.
	Tools []Tool
}

// Response is a complete reply.
type Response struct {
	// Message is the assistant message (role assistant; content and/or
	// tool calls).
	Message message.Message
	// Usage is the token usage the server reported; zero when it reported
	// none.
	Usage Usage
	// StopReason is the server's reason for ending, as it named it
	// ("stop", "end_turn", "length", "tool_calls", …).
	StopReason string
}

// Usage counts tokens as reported by the server.
type Usage struct {
	InputTokens  int
	OutputTokens int
}

// Kind classifies a provider failure.
type Kind int

// Failure kinds, each with its own user-facing hint.
const (
	KindUnknown     Kind = iota
	KindAuth             // 401/403: missing or wrong API key
	KindModel            // 404 or unknown model
	KindRateLimit        // 429
	KindServer           // 5xx
	KindBadRequest       // other 4xx
	KindUnreachable      // connection refused, DNS failure
	KindTimeout          // deadline exceeded
	KindCanceled         // the user cancelled
	// KindContextLength: the request does not fit the model's context
	// window (OpenAI's context_length_exceeded, Anthropic's "prompt is too
	// long", …; see IsContextLength). The conversation engine answers it
	// by compacting and retrying once.
	KindContextLength
)

// ErrProvider is matched by every *Error with errors.Is.
var ErrProvider = errors.New("provider: request failed")

// Error is a classified provider failure. Error() is a single line naming the
// provider, what happened and what to do.
type Error struct {
	Provider string // "openai", "anthropic", …
	Kind     Kind
	Status   int    // HTTP status, 0 when there was no response
	Detail   string // the server's own message, one line, may be empty
	Err      error  // the underlying error
	// Cause is the error Detail is the text of when Detail is chatcli's
	// own words (TimeoutCause), for a Printer to say in its language; nil
	// when Detail is the server's.
	Cause error
}

func (e *Error) Error() string {
	hint := map[Kind]string{
		KindAuth:        "authentication failed; check the API key",
		KindModel:       "not found; check the model name and the base URL",
		KindRateLimit:   "rate limited; wait and retry",
		KindServer:      "server error; retry later",
		KindBadRequest:  "request rejected",
		KindUnreachable: "cannot connect to the server; check the base URL and that the server is running",
		KindTimeout:     "request timed out",
		KindCanceled:    "request cancelled",
		KindContextLength: "the conversation is longer than the model's context window; " +
			"/compact it, set a smaller CHATCLI_CONTEXT_WINDOW so it is compacted sooner, or /rewind",
	}[e.Kind]
	if hint == "" {
		hint = "request failed"
	}
	s := e.Provider + ": " + hint
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	} else if e.Err != nil && e.Kind != KindCanceled {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrProvider) true for every *Error.
func (e *Error) Is(target error) bool { return target == ErrProvider }
