package providertest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// NewGemini starts a strict Gemini API server (streamGenerateContent with
// alt=sse); its base URL for a client is URL.
func NewGemini(t testing.TB, replies ...Reply) *Server {
	return newServer(t, replies, "/v1beta/models/*:streamGenerateContent", (*Server).checkGemini, writeGemini, GeminiError)
}

// GeminiError writes an error response in the Google API shape
// {"error":{"code","message","status"}}; typ is the status
// (INVALID_ARGUMENT, …).
func GeminiError(w http.ResponseWriter, status int, typ, msg string) {
	if typ == "" || strings.Contains(typ, "_error") {
		typ = "INVALID_ARGUMENT"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": typ}})
}

type geminiPart struct {
	Text         *string `json:"text"`
	FunctionCall *struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"functionResponse"`
	InlineData *struct {
		MIMEType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData"`
	ThoughtSignature string `json:"thoughtSignature"`
}

type geminiRequest struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
}

// CheckGemini applies the Gemini API's rules for contents to body and
// returns the refusal message, "" when the request is valid. thinking adds
// Gemini 3's rule that the function calls of the current turn carry their
// thought signatures.
func CheckGemini(body []byte, thinking bool) string {
	var req geminiRequest
	if msg := decode(body, &req); msg != "" {
		return msg
	}
	lastUserText := -1
	for i, c := range req.Contents {
		for _, p := range c.Parts {
			if c.Role == "user" && p.FunctionResponse == nil {
				lastUserText = i
			}
		}
	}
	prevCalls, prevKind := 0, ""
	for i, c := range req.Contents {
		// "Please use a valid role: user, model."
		if c.Role != "user" && c.Role != "model" {
			return "Please use a valid role: user, model."
		}
		// "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty."
		if len(c.Parts) == 0 {
			return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.", i)
		}
		calls, responses := 0, 0
		for k, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				calls++
				if thinking && i > lastUserText && p.ThoughtSignature == "" {
					return fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d.", p.FunctionCall.Name, k+1)
				}
			case p.FunctionResponse != nil:
				responses++
				if p.FunctionResponse.Name == "" {
					return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts[%d].function_response.name: Name cannot be empty.", i, k)
				}
			case p.InlineData != nil:
				data, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
				// Gemini takes PNG, JPEG, WebP, HEIC and HEIF images
				// (ai.google.dev, Image understanding).
				if err != nil || p.InlineData.MIMEType == "image/gif" || !sniffedAs(data, p.InlineData.MIMEType) {
					return fmt.Sprintf("Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting (contents[%d].parts[%d])", i, k)
				}
			case p.Text != nil && *p.Text == "":
				return fmt.Sprintf("* GenerateContentRequest.contents[%d].parts[%d].data: required oneof field 'data' must have one initialized field", i, k)
			}
		}
		kind := map[bool]string{true: "call", false: c.Role}[calls > 0]
		if responses > 0 {
			kind = "response"
		}
		switch {
		case kind == "call" && prevKind != "user" && prevKind != "response":
			return "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
		case kind == "response" && prevKind != "call":
			return "Please ensure that function response turn comes immediately after a function call turn."
		case kind == "response" && responses != prevCalls:
			return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
		case prevKind == "call" && kind != "response":
			return "Please ensure that function response turn comes immediately after a function call turn."
		}
		prevCalls, prevKind = calls, kind
	}
	return ""
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

// writeGemini streams rep as GenerateContentResponse chunks: text pieces,
// then the function calls (each with a thought signature when rep has
// reasoning), then a chunk with finishReason STOP and usageMetadata.
func writeGemini(w http.ResponseWriter, rep Reply, prompt int) {
	chunk := func(parts string, finish string) {
		fin := ""
		if finish != "" {
			fin = `,"finishReason":"` + finish + `"`
		}
		flushSSE(w, "", fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[%s]}%s,"index":0}],`+
			`"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":5,"totalTokenCount":%d},"modelVersion":"fake"}`, parts, fin, prompt, prompt+5))
	}
	for _, p := range pieces(rep.Text) {
		if p != "" {
			chunk(`{"text":`+jsonString(p)+`}`, "")
		}
	}
	var calls []string
	for _, c := range rep.ToolCalls {
		part := fmt.Sprintf(`{"functionCall":{"id":%s,"name":%s,"args":%s}`, jsonString(c.ID), jsonString(c.Name), c.Arguments)
		if rep.Reasoning != "" {
			part += `,"thoughtSignature":` + jsonString(base64.StdEncoding.EncodeToString([]byte(Signature(rep.Reasoning))))
		}
		calls = append(calls, part+"}")
	}
	if len(calls) > 0 {
		chunk(strings.Join(calls, ","), "")
	}
	chunk(`{"text":""}`, "STOP")
}
