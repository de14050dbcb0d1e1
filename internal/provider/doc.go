// Package provider defines the interface between the conversation engine and
// an LLM service, and the error classification every implementation uses.
//
// Implementations live in sub-packages: openai (OpenAI and every
// OpenAI-compatible server, through github.com/openai/openai-go/v3),
// anthropic (through github.com/anthropics/anthropic-sdk-go/v2) and offline
// (deterministic local replies, not a model). Each converts the neutral
// message.Message history to its own wire types in a format.go.
//
// Chat streams: onDelta receives each piece of assistant text as it arrives;
// the returned Response holds the whole assistant message. On failure Chat
// returns an *Error whose Kind says what went wrong and whose Error() is one
// line a person can act on; nothing partial is returned as a reply.
package provider
