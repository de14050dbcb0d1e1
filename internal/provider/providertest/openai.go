package providertest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// NewOpenAI starts a strict chat-completions server; its base URL for a
// client is URL + "/v1".
func NewOpenAI(t testing.TB, replies ...Reply) *Server {
	return newServer(t, replies, "/v1/chat/completions", false, (*Server).checkOpenAI, writeOpenAI, OpenAIError)
}

// OpenAIError writes an error response in the chat-completions shape
// {"error":{"message","type","param","code"}}; a type ending in
// "_exceeded" is also sent as the code, as OpenAI sends
// context_length_exceeded.
func OpenAIError(w http.ResponseWriter, status int, typ, msg string) {
	var code any
	if strings.HasSuffix(typ, "_exceeded") {
		code, typ = typ, "invalid_request_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code},
	})
}

// openaiRequest is the part of a chat-completions body the rules read.
type openaiRequest struct {
	Messages []openaiMessage  `json:"messages"`
	Tools    []map[string]any `json:"tools"`
}

type openaiMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ToolCallID       string          `json:"tool_call_id"`
	ReasoningContent *string         `json:"reasoning_content"`
	ToolCalls        []struct {
		ID string `json:"id"`
	} `json:"tool_calls"`
}

// CheckOpenAI applies the chat-completions rules to body and returns the
// refusal message, "" when the request is valid. thinking adds DeepSeek's
// thinking-mode rule.
func CheckOpenAI(body []byte, thinking bool) string {
	var req openaiRequest
	if msg := decode(body, &req); msg != "" {
		return msg
	}
	open := map[string]bool{}
	answered := map[string]int{}
	idAt := map[string]int{}
	lastUser := -1
	for i, m := range req.Messages {
		if m.Role == "user" {
			lastUser = i
		}
	}
	hasToolHistory := false
	for i, m := range req.Messages {
		if m.Role == "tool" {
			hasToolHistory = true
			// OpenAI: "Invalid parameter: messages with role 'tool' must be a
			// response to a preceeding message with 'tool_calls'."
			if !open[m.ToolCallID] {
				if j, ok := answered[m.ToolCallID]; ok {
					// OpenAI: "Invalid parameter: Duplicate value for 'tool_call_id' of
					// 'call_…' in messages[7] and messages[8]."
					return fmt.Sprintf("Invalid parameter: Duplicate value for 'tool_call_id' of '%s' in messages[%d] and messages[%d].", m.ToolCallID, j, i)
				}
				return fmt.Sprintf("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages.[%d])", i)
			}
			delete(open, m.ToolCallID)
			answered[m.ToolCallID] = i
			continue
		}
		// OpenAI: "An assistant message with 'tool_calls' must be followed by
		// tool messages responding to each 'tool_call_id'."
		for id := range open {
			return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", id)
		}
		if m.Role == "assistant" {
			if msg := checkOpenAIAssistant(i, m, idAt, thinking && i > lastUser); msg != "" {
				return msg
			}
			for _, c := range m.ToolCalls {
				open[c.ID] = true
				hasToolHistory = true
			}
		}
		if m.Role == "user" {
			if msg := checkOpenAIImages(i, m.Content); msg != "" {
				return msg
			}
		}
	}
	for id := range open {
		return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", id)
	}
	// Bedrock's Converse API behind OpenAI-compatible gateways (LiteLLM):
	// "The toolConfig field must be defined when using toolUse and
	// toolResult content blocks."
	if hasToolHistory && len(req.Tools) == 0 {
		return "The toolConfig field must be defined when using toolUse and toolResult content blocks."
	}
	return ""
}

// checkOpenAIAssistant checks one assistant message at index i.
func checkOpenAIAssistant(i int, m openaiMessage, idAt map[string]int, currentTurn bool) string {
	var text string
	isText := json.Unmarshal(m.Content, &text) == nil
	// OpenAI refuses an assistant message with neither content nor
	// tool_calls: "Invalid value for 'content': expected a string, got null."
	if len(m.ToolCalls) == 0 && (len(m.Content) == 0 || string(m.Content) == "null" || (isText && text == "")) {
		return fmt.Sprintf("Invalid value for 'messages[%d].content': expected a string, got null.", i)
	}
	for k, c := range m.ToolCalls {
		// OpenAI: "Invalid 'messages[2].tool_calls[0].id': string too long.
		// Expected a string with maximum length 40, but got a string with
		// length 57 instead."
		if len(c.ID) > 40 {
			return fmt.Sprintf("Invalid 'messages[%d].tool_calls[%d].id': string too long. Expected a string with maximum length 40, but got a string with length %d instead.", i, k, len(c.ID))
		}
		if j, ok := idAt[c.ID]; ok {
			return fmt.Sprintf("Invalid parameter: Duplicate value for 'tool_call_id' of '%s' in messages[%d] and messages[%d].", c.ID, j, i)
		}
		idAt[c.ID] = i
	}
	// DeepSeek thinking mode (api-docs.deepseek.com/guides/thinking_mode,
	// "Tool Calls"): reasoning_content must be passed back during the tool
	// calls of a turn, else "Missing `reasoning_content` field in the
	// assistant message at message index N."
	if currentTurn && len(m.ToolCalls) > 0 && m.ReasoningContent == nil {
		return fmt.Sprintf("Missing `reasoning_content` field in the assistant message at message index %d. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls", i)
	}
	return ""
}

// checkOpenAIImages checks the image_url parts of a user message: OpenAI
// takes http(s) URLs and base64 data URLs of PNG, JPEG, GIF or WebP
// (platform.openai.com/docs/guides/images-vision); it answers others with
// "You uploaded an unsupported image. Please make sure your image has of
// one the following formats: ['png', 'jpeg', 'gif', 'webp']."
func checkOpenAIImages(i int, content json.RawMessage) string {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	for k, p := range parts {
		if p.Type != "image_url" {
			continue
		}
		u := p.ImageURL.URL
		if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
			continue
		}
		rest, ok := strings.CutPrefix(u, "data:")
		meta, data, _ := strings.Cut(rest, ",")
		mt, isBase64 := strings.CutSuffix(meta, ";base64")
		if !ok || !isBase64 {
			return fmt.Sprintf("Invalid 'messages[%d].content[%d].image_url.url'. Expected a valid URL, but got a value with an invalid format.", i, k)
		}
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil || !sniffedAs(raw, mt) {
			return "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp']."
		}
	}
	return ""
}

// checkOpenAI is CheckOpenAI plus the context window.
func (s *Server) checkOpenAI(body []byte) (int, string, string) {
	if s.MaxPromptBytes > 0 && len(body) > s.MaxPromptBytes {
		// OpenAI's 400 with code context_length_exceeded.
		return http.StatusBadRequest, "context_length_exceeded", fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.",
			s.MaxPromptBytes/4, PromptTokens(body))
	}
	if msg := CheckOpenAI(body, s.Thinking); msg != "" {
		return http.StatusBadRequest, "invalid_request_error", msg
	}
	return 0, "", ""
}

// writeOpenAI streams rep as chat.completion.chunk events: reasoning
// deltas, text deltas, tool-call fragments, a finish_reason, usage and
// [DONE].
func writeOpenAI(w http.ResponseWriter, rep Reply, prompt int) {
	chunk := func(delta, finish string) {
		fr := "null"
		if finish != "" {
			fr = jsonString(finish)
		}
		flushSSE(w, "", fmt.Sprintf(`{"id":"chatcmpl-fake","object":"chat.completion.chunk","created":1700000000,"model":"fake",`+
			`"choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`, delta, fr))
	}
	chunk(`{"role":"assistant","content":""}`, "")
	for _, p := range pieces(rep.Reasoning) {
		if p != "" {
			chunk(`{"reasoning_content":`+jsonString(p)+`}`, "")
		}
	}
	for _, p := range pieces(rep.Text) {
		if p != "" {
			chunk(`{"content":`+jsonString(p)+`}`, "")
		}
	}
	for k, c := range rep.ToolCalls {
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]}`,
			k, jsonString(c.ID), jsonString(c.Name)), "")
		for _, p := range pieces(c.Arguments) {
			chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, k, jsonString(p)), "")
		}
	}
	finish := "stop"
	if len(rep.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	chunk(`{}`, finish)
	flushSSE(w, "", fmt.Sprintf(`{"id":"chatcmpl-fake","object":"chat.completion.chunk","created":1700000000,"model":"fake","choices":[],`+
		`"usage":{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}}`, prompt, prompt+5))
	flushSSE(w, "", "[DONE]")
}
