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
//
// # Gemini
//
// Config.Preset PresetGemini is Gemini's OpenAI-compatible endpoint
// (https://generativelanguage.googleapis.com/v1beta/openai/, the API key as
// a Bearer token, ai.google.dev/gemini-api/docs/openai). The client then
// reports the provider "googleai", and a request gets, beyond normalize,
// what the Gemini API behind the endpoint requires:
//
//   - images: Gemini takes PNG, JPEG, WebP, HEIC and HEIF (ai.google.dev,
//     Image understanding); a GIF is sent as its first frame in PNG. An
//     http(s) image, which the Gemini API does not fetch, is named in a
//     text part instead;
//   - a blank text part beside a user message's images is not sent (Gemini
//     refuses an empty text part);
//   - thought signatures: the endpoint returns a tool call's signature in
//     the call's "extra_content": {"google": {"thought_signature": …}}
//     (ai.google.dev, Thought signatures, OpenAI compatibility). It is kept
//     in the reply's meta (Reasoning.Blocks [{"call": <index>,
//     "thought_signature": …}], source "googleai/<model>") and sent back the
//     same way on those calls to the same model: Gemini 3 refuses the
//     function calls of the current turn without them ("Function call is
//     missing a thought_signature in functionCall parts"). The thoughts
//     themselves are not returned over this endpoint unless asked for, and
//     chatcli does not ask; the optional signatures of text replies are
//     not kept.
package openai
