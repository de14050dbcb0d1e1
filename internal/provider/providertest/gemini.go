package providertest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// NewGemini starts a strict fake of Gemini's OpenAI-compatible endpoint
// (chat completions under /v1beta/openai, streamed); its base URL for a
// client is URL + "/v1beta/openai". A request without an
// "Authorization: Bearer <key>" header is refused with 401.
func NewGemini(t testing.TB, replies ...Reply) *Server {
	return newServer(t, replies, "/v1beta/openai/chat/completions", true, (*Server).checkGemini, writeGemini, GeminiError)
}

// GeminiError writes an error response as Gemini's OpenAI-compatible
// endpoint does, a list of one Google API error:
// [{"error":{"code","message","status"}}]; typ is the status
// (INVALID_ARGUMENT, …).
func GeminiError(w http.ResponseWriter, status int, typ, msg string) {
	if typ == "" || strings.Contains(typ, "_error") {
		typ = map[int]string{401: "UNAUTHENTICATED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[status]
		if typ == "" {
			typ = "INVALID_ARGUMENT"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode([]any{map[string]any{"error": map[string]any{"code": status, "message": msg, "status": typ}}})
}

// geminiMessage is the part of a message the Gemini rules read.
type geminiMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
		ExtraContent *struct {
			Google struct {
				ThoughtSignature string `json:"thought_signature"`
			} `json:"google"`
		} `json:"extra_content"`
	} `json:"tool_calls"`
}

// CheckGemini applies the chat-completions rules (CheckOpenAI) and those
// the Gemini API behind the endpoint adds to body, and returns the refusal
// message, "" when the request is valid:
//
//   - an image is a base64 data URL of PNG, JPEG, WebP, HEIC or HEIF
//     (ai.google.dev, Image understanding), whose bytes show its type;
//   - a text part is not empty;
//   - with thinking (Gemini 3), the first tool call of each assistant
//     message of the current turn carries its thought signature in
//     extra_content.google.thought_signature.
func CheckGemini(body []byte, thinking bool) string {
	if msg := CheckOpenAI(body, false); msg != "" {
		return msg
	}
	var req struct {
		Messages []geminiMessage `json:"messages"`
	}
	if msg := decode(body, &req); msg != "" {
		return msg
	}
	lastUser := -1
	for i, m := range req.Messages {
		if m.Role == "user" {
			lastUser = i
		}
	}
	for i, m := range req.Messages {
		if msg := checkGeminiParts(i, m.Content); msg != "" {
			return msg
		}
		if thinking && i > lastUser && len(m.ToolCalls) > 0 {
			if c := m.ToolCalls[0]; c.ExtraContent == nil || c.ExtraContent.Google.ThoughtSignature == "" {
				return fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", c.Function.Name, i+1)
			}
		}
	}
	return ""
}

// checkGeminiParts checks the content parts of message i.
func checkGeminiParts(i int, content json.RawMessage) string {
	var parts []struct {
		Type     string  `json:"type"`
		Text     *string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	for k, p := range parts {
		switch p.Type {
		case "text":
			if p.Text == nil || *p.Text == "" {
				return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts[%d].data: required oneof field 'data' must have one initialized field", i, k)
			}
		case "image_url":
			rest, _ := strings.CutPrefix(p.ImageURL.URL, "data:")
			meta, data, _ := strings.Cut(rest, ",")
			mt, isBase64 := strings.CutSuffix(meta, ";base64")
			raw, err := base64.StdEncoding.DecodeString(data)
			if !strings.HasPrefix(p.ImageURL.URL, "data:") || !isBase64 || err != nil || !geminiImageType(raw, mt) {
				return fmt.Sprintf("Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting (contents[%d].parts[%d])", i, k)
			}
		}
	}
	return ""
}

// geminiImageType reports whether data is an image Gemini takes whose bytes
// show mediaType.
func geminiImageType(data []byte, mediaType string) bool {
	switch mediaType {
	case "image/png", "image/jpeg", "image/webp":
		return sniffedAs(data, mediaType)
	case "image/heic", "image/heif":
		return len(data) > 12 && string(data[4:8]) == "ftyp"
	}
	return false
}

// checkGemini is CheckGemini plus the context window.
func (s *Server) checkGemini(body []byte) (int, string, string) {
	if s.MaxPromptBytes > 0 && len(body) > s.MaxPromptBytes {
		return http.StatusBadRequest, "INVALID_ARGUMENT", fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).",
			PromptTokens(body), s.MaxPromptBytes/4)
	}
	if msg := CheckGemini(body, s.Thinking); msg != "" {
		return http.StatusBadRequest, "INVALID_ARGUMENT", msg
	}
	return 0, "", ""
}

// writeGemini streams rep as the endpoint does: chat.completion.chunk
// events with text deltas, then each tool call whole in one delta (with
// its thought signature in extra_content when rep has reasoning: Gemini
// returns a signature, not the thoughts), then a chunk with the
// finish_reason and the usage, and [DONE].
func writeGemini(w http.ResponseWriter, rep Reply, prompt int) {
	chunk := func(delta, finish, usage string) {
		fr := "null"
		if finish != "" {
			fr = jsonString(finish)
		}
		flushSSE(w, "", fmt.Sprintf(`{"id":"gemini-fake","object":"chat.completion.chunk","created":1700000000,"model":"gemini-fake",`+
			`"choices":[{"index":0,"delta":%s,"finish_reason":%s}]%s}`, delta, fr, usage))
	}
	for _, p := range pieces(rep.Text) {
		if p != "" {
			chunk(`{"role":"assistant","content":`+jsonString(p)+`}`, "", "")
		}
	}
	for k, c := range rep.ToolCalls {
		extra := ""
		if rep.Reasoning != "" && k == 0 {
			extra = `,"extra_content":{"google":{"thought_signature":` + jsonString(base64.StdEncoding.EncodeToString([]byte(Signature(rep.Reasoning)))) + `}}`
		}
		chunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":%s}%s}]}`,
			k, jsonString(c.ID), jsonString(c.Name), jsonString(c.Arguments), extra), "", "")
	}
	finish := "stop"
	if len(rep.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	chunk(`{"role":"assistant"}`, finish, fmt.Sprintf(`,"usage":{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}`, prompt, prompt+5))
	flushSSE(w, "", "[DONE]")
}
