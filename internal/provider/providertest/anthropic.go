package providertest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// NewAnthropic starts a strict Messages API server; its base URL for a
// client is URL.
func NewAnthropic(t testing.TB, replies ...Reply) *Server {
	return newServer(t, replies, "/v1/messages", false, (*Server).checkAnthropic, writeAnthropic, AnthropicError)
}

// AnthropicError writes an error response in the Messages API shape
// {"type":"error","error":{"type","message"}}.
func AnthropicError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_fake",
	})
}

type anthropicRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []map[string]any `json:"tools"`
}

type anthropicBlock struct {
	Type      string  `json:"type"`
	Text      *string `json:"text"`
	ID        string  `json:"id"`
	ToolUseID string  `json:"tool_use_id"`
	Thinking  string  `json:"thinking"`
	Signature string  `json:"signature"`
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
		URL       string `json:"url"`
	} `json:"source"`
}

// toolUseID is the pattern the Messages API documents for tool_use ids
// (its 400 names it: "String should match pattern '^[a-zA-Z0-9_-]+$'").
var toolUseID = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// Signature is the signature the fake gives a thinking block: derived from
// its text, so a block sent back modified (or invented) is refused, as the
// real API refuses a thinking block whose signature does not verify.
func Signature(thinking string) string {
	sum := sha256.Sum256([]byte(thinking))
	return "sig" + hex.EncodeToString(sum[:12])
}

// CheckAnthropic applies the Messages API rules to body and returns the
// refusal message, "" when the request is valid.
func CheckAnthropic(body []byte) string {
	var req anthropicRequest
	if msg := decode(body, &req); msg != "" {
		return msg
	}
	var prevUses map[string]bool
	allIDs := map[string]bool{}
	hasToolBlocks := false
	for i, m := range req.Messages {
		// "messages: roles must alternate between "user" and "assistant""
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Sprintf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if (i%2 == 0) != (m.Role == "user") {
			return "messages: roles must alternate between \"user\" and \"assistant\", starting with \"user\""
		}
		var blocks []anthropicBlock
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			blocks = []anthropicBlock{{Type: "text", Text: &s}}
		} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return fmt.Sprintf("messages.%d.content: Input should be a valid list", i)
		}
		uses, answered := map[string]bool{}, map[string]bool{}
		seenOther := false
		for k, b := range blocks {
			switch b.Type {
			case "text":
				// The API refuses empty text ("text content blocks must be
				// non-empty") and whitespace-only text ("text content blocks
				// must contain non-whitespace text").
				if b.Text == nil || *b.Text == "" {
					return fmt.Sprintf("messages.%d.content.%d: text content blocks must be non-empty", i, k)
				}
				if strings.TrimSpace(*b.Text) == "" {
					return "messages: text content blocks must contain non-whitespace text"
				}
				seenOther = true
			case "tool_use":
				hasToolBlocks = true
				if !toolUseID.MatchString(b.ID) {
					return fmt.Sprintf("messages.%d.content.%d.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", i, k)
				}
				if allIDs[b.ID] {
					return fmt.Sprintf("messages.%d.content.%d: `tool_use` ids must be unique", i, k)
				}
				allIDs[b.ID], uses[b.ID] = true, true
			case "tool_result":
				hasToolBlocks = true
				// "tool_result blocks must come first" / "Each `tool_result`
				// block must have a corresponding `tool_use` block in the
				// previous message."
				if seenOther {
					return fmt.Sprintf("messages.%d: tool_result blocks must come first in the content", i)
				}
				if !prevUses[b.ToolUseID] {
					return fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, k, b.ToolUseID)
				}
				answered[b.ToolUseID] = true
			case "image":
				if msg := checkAnthropicImage(i, k, b); msg != "" {
					return msg
				}
				seenOther = true
			case "thinking", "redacted_thinking":
				if m.Role != "assistant" {
					return fmt.Sprintf("messages.%d.content.%d: thinking blocks may only appear in assistant messages", i, k)
				}
				if b.Type == "thinking" && b.Signature != Signature(b.Thinking) {
					return fmt.Sprintf("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, k)
				}
			default:
				seenOther = true
			}
		}
		for id := range prevUses {
			if !answered[id] {
				return fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, id)
			}
		}
		prevUses = uses
	}
	for id := range prevUses {
		return fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s.", len(req.Messages)-1, id)
	}
	if hasToolBlocks && len(req.Tools) == 0 {
		return "Requests which include `tool_use` or `tool_result` blocks must define tools."
	}
	return ""
}

// checkAnthropicImage checks an image block: a base64 source's media_type
// must be one of the four the API lists, and the bytes must be of that
// type ("Image does not match the provided media type image/png"); a url
// source must be http(s).
func checkAnthropicImage(i, k int, b anthropicBlock) string {
	switch b.Source.Type {
	case "url":
		if !strings.HasPrefix(b.Source.URL, "https://") && !strings.HasPrefix(b.Source.URL, "http://") {
			return fmt.Sprintf("messages.%d.content.%d.image.source.url: Input should be a valid URL", i, k)
		}
		return ""
	case "base64":
	default:
		return fmt.Sprintf("messages.%d.content.%d.image.source: Input tag '%s' found using 'type' does not match any of the expected tags: 'base64', 'url'", i, k, b.Source.Type)
	}
	switch b.Source.MediaType {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
	default:
		return fmt.Sprintf("messages.%d.content.%d.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", i, k)
	}
	data, err := base64.StdEncoding.DecodeString(b.Source.Data)
	if err != nil {
		return fmt.Sprintf("messages.%d.content.%d.image.source.base64: invalid base64 data", i, k)
	}
	if !sniffedAs(data, b.Source.MediaType) {
		return fmt.Sprintf("messages.%d.content.%d.image.source.base64.data: Image does not match the provided media type %s", i, k, b.Source.MediaType)
	}
	return ""
}

// checkAnthropic is CheckAnthropic plus the context window.
func (s *Server) checkAnthropic(body []byte) (int, string, string) {
	if s.MaxPromptBytes > 0 && len(body) > s.MaxPromptBytes {
		// The Messages API's 400 for a prompt over the model's window.
		return http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > %d maximum", PromptTokens(body), s.MaxPromptBytes/4)
	}
	if msg := CheckAnthropic(body); msg != "" {
		return http.StatusBadRequest, "invalid_request_error", msg
	}
	return 0, "", ""
}

// writeAnthropic streams rep as Messages events: message_start, a thinking
// block (with its signature), a text block, tool_use blocks, message_delta
// and message_stop.
func writeAnthropic(w http.ResponseWriter, rep Reply, prompt int) {
	ev := func(name, data string) { flushSSE(w, name, data) }
	ev("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_fake","type":"message","role":"assistant","content":[],"model":"fake",`+
		`"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"output_tokens":1}}}`, prompt))
	idx := 0
	if rep.Reasoning != "" {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"thinking","thinking":"","signature":""}}`, idx))
		for _, p := range pieces(rep.Reasoning) {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"thinking_delta","thinking":%s}}`, idx, jsonString(p)))
		}
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"signature_delta","signature":%s}}`, idx, jsonString(Signature(rep.Reasoning))))
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, idx))
		idx++
	}
	if rep.Text != "" {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, idx))
		for _, p := range pieces(rep.Text) {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, idx, jsonString(p)))
		}
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, idx))
		idx++
	}
	for _, c := range rep.ToolCalls {
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`,
			idx, jsonString(c.ID), jsonString(c.Name)))
		for _, p := range pieces(c.Arguments) {
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, idx, jsonString(p)))
		}
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, idx))
		idx++
	}
	stop := "end_turn"
	if len(rep.ToolCalls) > 0 {
		stop = "tool_use"
	}
	ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":5}}`, stop))
	ev("message_stop", `{"type":"message_stop"}`)
}
