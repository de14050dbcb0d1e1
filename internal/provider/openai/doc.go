// Package openai is the provider for OpenAI and every server that speaks the
// OpenAI chat-completions protocol (Ollama, llama.cpp, vLLM, LM Studio,
// OpenRouter), through the official SDK github.com/openai/openai-go/v3.
//
// Chat posts to <BaseURL>/chat/completions with "stream": true and
// "stream_options": {"include_usage": true}, and reads the server-sent
// events: one "data: {chunk}" line per event, "data: [DONE]" at the end.
// Text deltas are passed to onDelta as they arrive; tool-call fragments
// (an id and name in the first fragment, the arguments split over any
// number of later ones, several calls told apart by their index) are joined
// by the SDK's ChatCompletionAccumulator into message.ToolCall values. A
// stream that ends before a choice reports its finish_reason, or that
// carries an {"error": …} event, fails the call: nothing partial is ever
// returned as a reply.
//
// format.go documents how a message.Message history becomes the request's
// "messages" array.
package openai
