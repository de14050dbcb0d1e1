package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// idRule is what chat completions accept as a tool-call id: OpenAI refuses
// a longer one ("Invalid 'messages[2].tool_calls[0].id': string too long.
// Expected a string with maximum length 40"); Anthropic's "toolu_…" ids
// and those of other backends fit, repaired ones ("a~2") are fine.
var idRule = provider.IDRule{MaxLen: 40}

// reasoningField is the member OpenAI-compatible servers stream a
// model's reasoning in and want back (DeepSeek's thinking mode requires it
// on the tool-call messages of a turn: "Missing `reasoning_content` field
// in the assistant message"; Kimi's thinking models the same).
const reasoningField = "reasoning_content"

// normalize is the step every request's history goes through before it is
// converted: it returns a copy fitted to what chat completions accept,
// never changing msgs (the stored history). Its rules, each with its
// source:
//
//   - tool-call ids are mapped to idRule, unique within the request
//     (OpenAI: "Duplicate value for 'tool_call_id'");
//   - an assistant message with neither text (blanks do not count) nor
//     tool calls is dropped (OpenAI: "Invalid value for 'content':
//     expected a string, got null"), and blank text beside tool calls is
//     not sent;
//   - reasoning stored in meta is kept only when this provider and model
//     wrote it (source); another model's is not sent;
//
// and, applied while converting (format.go): images go through
// provider.LoadImage (OpenAI takes PNG, JPEG, GIF and WebP as http(s) or
// base64 data URLs, "You uploaded an unsupported image" otherwise), and the
// tools the history calls are declared (toolsOfHistory).
//
// numbers holds, for each message returned, its number (1-based) in msgs,
// so errors name the stored message.
func normalize(msgs []message.Message, source string) (out []message.Message, numbers []int) {
	msgs = provider.MapToolCallIDs(msgs, idRule)
	out = make([]message.Message, 0, len(msgs))
	for i, m := range msgs {
		if m.Role == message.RoleAssistant {
			if strings.TrimSpace(m.Content) == "" {
				if len(m.ToolCalls) == 0 {
					continue
				}
				m.Content = ""
			}
			if m.Meta != nil && m.Meta.Reasoning != nil && m.Meta.Reasoning.Source != source {
				meta := *m.Meta
				meta.Reasoning = nil
				m.Meta = &meta
			}
		}
		out, numbers = append(out, m), append(numbers, i+1)
	}
	return out, numbers
}

// reasoningOf returns the reasoning_content to send back with m, "" for
// none.
func reasoningOf(m message.Message) string {
	if m.Meta == nil || m.Meta.Reasoning == nil {
		return ""
	}
	return m.Meta.Reasoning.Text
}

// deltaReasoning returns the reasoning_content piece of a streamed delta,
// "" when it has none.
func deltaReasoning(d openai.ChatCompletionChunkChoiceDelta) string {
	f, ok := d.JSON.ExtraFields[reasoningField]
	if !ok {
		return ""
	}
	var s string
	_ = json.Unmarshal([]byte(f.Raw()), &s)
	return s
}

// imagePart converts a stored image reference into an image_url part (a
// data URL with the media type its bytes show, or the http(s) URL), fitted
// to d (Gemini: geminiImage, and a URL named in a text part); message number n names the message in the error.
func imagePart(n int, ref string, d dialect) (openai.ChatCompletionContentPartUnionParam, error) {
	im, err := provider.LoadImage(ref)
	if err == nil && d.gemini {
		im, err = geminiImage(im)
	}
	if err != nil {
		return openai.ChatCompletionContentPartUnionParam{}, fmt.Errorf("message #%d: %w", n, err)
	}
	if d.gemini && im.URL != "" {
		return openai.TextContentPart("[image: " + im.URL + "]"), nil
	}
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: im.DataURL()}), nil
}

// toolsOfHistory returns the names of the tools msgs calls that are not
// among offered, in order of first call. They are declared with an open
// schema: servers in front of APIs that require every called tool to be
// defined (Bedrock's Converse: "The toolConfig field must be defined when
// using toolUse and toolResult content blocks") would refuse the history
// otherwise.
func toolsOfHistory(msgs []message.Message, offered []provider.Tool) []string {
	seen := map[string]bool{}
	for _, t := range offered {
		seen[t.Name] = true
	}
	var names []string
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if !seen[c.Name] {
				seen[c.Name] = true
				names = append(names, c.Name)
			}
		}
	}
	return names
}

// dialect is the API a request is fitted to.
type dialect struct {
	// name is the provider name reported, and the prefix of the reasoning
	// source: "openai", or "googleai" for Gemini.
	name string
	// maxCompletion sends MaxTokens as max_completion_tokens (OpenAI).
	maxCompletion bool
	// gemini applies Gemini's rules (package doc).
	gemini bool
}

// source names the writer of reasoning: "<name>/<model>".
func (d dialect) source(model string) string { return d.name + "/" + model }
