// Package gemini is the provider for Google's Gemini API, through the
// official SDK google.golang.org/genai (Gemini API backend, API key).
//
// Chat posts to <BaseURL>/v1beta/models/<model>:streamGenerateContent
// with alt=sse and reads the GenerateContentResponse chunks the stream
// carries: text parts go to onDelta as they arrive, functionCall parts
// become tool calls, usageMetadata the usage; a stream that ends without a
// finishReason fails the call (provider.ErrIncomplete), so nothing partial
// is returned as a reply.
//
// format.go documents how a message.Message history becomes "contents",
// "systemInstruction", "tools" and "toolConfig", and the normalisation
// applied to every request (never to the stored history). The SDK reads
// GOOGLE_API_KEY, GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL only for what
// Config leaves empty.
package gemini
