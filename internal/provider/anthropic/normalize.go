package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// idRule is what the Messages API accepts as a tool_use id: its 400 says
// "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'". Ids other
// backends write (Kimi's "functions.list_dir:0", a repaired "call~1") are
// mapped by provider.MapToolCallIDs, for the request only.
var idRule = provider.IDRule{Allowed: func(r rune) bool {
	return r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
}}

// normalize is the step every request's history goes through before it is
// converted: it returns a copy fitted to what the Messages API accepts,
// never changing msgs (the stored history). Its rules, each with its
// source:
//
//   - tool-call ids are mapped to idRule, unique within the request (the
//     API: "`tool_use` ids must be unique");
//   - reasoning stored in an assistant message's meta is kept only when
//     this provider and model wrote it (source): thinking blocks carry a
//     signature only Anthropic verifies, and another model's reasoning is
//     not Anthropic's to replay;
//
// and, applied while converting (format.go): whitespace-only text is not
// sent ("text content blocks must contain non-whitespace text"), an
// assistant message left without blocks is dropped, and images go through
// provider.LoadImage (media type from the bytes: "Image does not match the
// provided media type").
func normalize(msgs []message.Message, source string) []message.Message {
	msgs = provider.MapToolCallIDs(msgs, idRule)
	var out []message.Message
	for i, m := range msgs {
		if m.Meta == nil || m.Meta.Reasoning == nil || m.Meta.Reasoning.Source == source {
			continue
		}
		if out == nil {
			out = append([]message.Message(nil), msgs...)
		}
		meta := *m.Meta
		meta.Reasoning = nil
		out[i].Meta = &meta
	}
	if out == nil {
		return msgs
	}
	return out
}

// hasText reports whether text is worth a text block: the API refuses
// empty and whitespace-only text blocks.
func hasText(text string) bool { return strings.TrimSpace(text) != "" }

// thinkingBlock is a thinking or redacted_thinking block as stored in
// message.Reasoning.Blocks.
type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// reasoningBlocks returns the stored thinking blocks of m as request
// blocks, verbatim and in order (the API: "thinking blocks must be passed
// back unmodified"); none when m has none for this provider.
func reasoningBlocks(m message.Message) []anthropic.ContentBlockParamUnion {
	if m.Meta == nil || m.Meta.Reasoning == nil || len(m.Meta.Reasoning.Blocks) == 0 {
		return nil
	}
	var stored []thinkingBlock
	if json.Unmarshal(m.Meta.Reasoning.Blocks, &stored) != nil {
		return nil
	}
	var out []anthropic.ContentBlockParamUnion
	for _, b := range stored {
		switch b.Type {
		case "thinking":
			out = append(out, anthropic.NewThinkingBlock(b.Signature, b.Thinking))
		case "redacted_thinking":
			out = append(out, anthropic.NewRedactedThinkingBlock(b.Data))
		}
	}
	return out
}

// storedReasoning returns the thinking blocks of a reply for its meta, nil
// when it has none.
func storedReasoning(msg anthropic.Message, source string) *message.Reasoning {
	var blocks []thinkingBlock
	for _, b := range msg.Content {
		switch b.Type {
		case "thinking":
			blocks = append(blocks, thinkingBlock{Type: b.Type, Thinking: b.Thinking, Signature: b.Signature})
		case "redacted_thinking":
			blocks = append(blocks, thinkingBlock{Type: b.Type, Data: b.Data})
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	raw, _ := json.Marshal(blocks)
	return &message.Reasoning{Source: source, Blocks: raw}
}

// imageBlock converts a stored image reference (see provider.LoadImage)
// into an image block: inline bytes as a base64 source with their sniffed
// media type, an http(s) URL as a url source. Message number n names the
// message in the error.
func imageBlock(n int, ref string) (anthropic.ContentBlockParamUnion, error) {
	im, err := provider.LoadImage(ref)
	if err != nil {
		return anthropic.ContentBlockParamUnion{}, fmt.Errorf("message #%d: %w", n, err)
	}
	if im.URL != "" {
		return anthropic.NewImageBlock(anthropic.URLImageSourceParam{URL: im.URL}), nil
	}
	return anthropic.NewImageBlockBase64(im.MediaType, im.Base64()), nil
}
