// Package provider defines the interface between the conversation engine and
// an LLM service, and the error classification every implementation uses.
//
// Implementations live in sub-packages: openai (OpenAI and every
// OpenAI-compatible server, through github.com/openai/openai-go/v3),
// anthropic (through github.com/anthropics/anthropic-sdk-go/v2) and offline
// (deterministic local replies, not a model). Each converts the neutral
// message.Message history to its own wire types in a format.go, after a
// normalize step (normalize.go) that fits any stored history to what that
// provider accepts, for the request only: tool-call ids mapped by
// MapToolCallIDs to the provider's IDRule, whitespace-only text and empty
// assistant messages dropped, images resolved by LoadImage (media type from
// the bytes, files inlined), tools the history calls declared, and reasoning
// (message.Reasoning) replayed only to the provider and model that wrote it.
// The stored history is never changed. providertest holds the strict fake
// servers that check each rule.
//
// Chat streams: onDelta receives each piece of assistant text as it arrives;
// the returned Response holds the whole assistant message. On failure Chat
// returns an *Error whose Kind says what went wrong and whose Error() is one
// line a person can act on; nothing partial is returned as a reply.
package provider
