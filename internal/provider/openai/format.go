package openai

import (
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// toParams converts a request into chat-completions parameters for model.
//
// The history first goes through normalize (normalize.go). Each message
// then becomes one entry of "messages", in order and with its role:
//
//   - system: {"role":"system","content":…}, wherever it appears;
//   - user: {"role":"user","content":…}; with Images, content is an array
//     of a text part and one image_url part per image (http URLs as
//     written, data URLs and files as data URLs of the media type their
//     bytes show; an image that cannot be sent is an error naming the
//     message);
//   - assistant: {"role":"assistant","content":…,"tool_calls":[{"id","type":
//     "function","function":{"name","arguments"}}]}; content is left out
//     when it is empty and there are tool calls; the model's own
//     reasoning goes back in "reasoning_content";
//   - tool: {"role":"tool","tool_call_id":…,"content":…}. The format has no
//     error flag for a result: a failed call (meta.tool_error) is sent as
//     its content alone, which says what failed.
//
// Each of req.Tools becomes {"type":"function","function":{"name",
// "description","parameters"}} in "tools"; tool_choice is left to the
// server's default ("auto" when tools are given) and parallel calls are
// allowed. Tools the history calls that are not offered are declared too,
// with an open schema and a description saying they are not available
// now; when none is offered tool_choice is "none", so the model sees the
// history but calls nothing. Without tools anywhere neither field is sent.
//
// MaxTokens > 0 is sent as max_completion_tokens to OpenAI itself
// (d.maxCompletion: its newer models refuse max_tokens) and as max_tokens
// otherwise (compatible servers, several of which know only max_tokens).
// A message with an unknown role is an error. Gemini's endpoint (d.gemini)
// gets the adjustments the package doc lists.
func toParams(model string, req provider.Request, d dialect) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{
		Model:         model,
		Messages:      make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	msgs, numbers := normalize(req.Messages, d.source(model))
	for i, m := range msgs {
		u, err := toMessage(numbers[i], m, d)
		if err != nil {
			return p, err
		}
		p.Messages = append(p.Messages, u)
	}
	for _, t := range req.Tools {
		schema, err := t.Schema()
		if err != nil {
			return p, err
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	for _, name := range toolsOfHistory(req.Messages, req.Tools) {
		fn := shared.FunctionDefinitionParam{Name: name, Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{}},
			Description: openai.String("Called earlier in this conversation; not available now. Do not call it.")}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if len(req.Tools) == 0 && len(p.Tools) > 0 {
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("none")}
	}
	if req.MaxTokens > 0 {
		if d.maxCompletion {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	return p, nil
}

// toMessage converts message number n for d.
func toMessage(n int, m message.Message, d dialect) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case message.RoleSystem:
		return openai.SystemMessage(m.Content), nil
	case message.RoleUser:
		if len(m.Images) == 0 {
			return openai.UserMessage(m.Content), nil
		}
		var parts []openai.ChatCompletionContentPartUnionParam
		if !d.gemini || strings.TrimSpace(m.Content) != "" {
			parts = append(parts, openai.TextContentPart(m.Content))
		}
		for _, img := range m.Images {
			part, err := imagePart(n, img.Ref(), d)
			if err != nil {
				return openai.ChatCompletionMessageParamUnion{}, err
			}
			parts = append(parts, part)
		}
		return openai.UserMessage(parts), nil
	case message.RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = openai.String(m.Content)
		}
		var sigs map[int]string
		if d.gemini {
			sigs = signaturesOf(m)
		}
		for k, c := range m.ToolCalls {
			fn := &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name: c.Name, Arguments: c.Arguments,
				},
			}
			if sig := sigs[k]; sig != "" {
				fn.SetExtraFields(map[string]any{extraContentField: map[string]any{"google": map[string]any{"thought_signature": sig}}})
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: fn})
		}
		if r := reasoningOf(m); r != "" {
			a.SetExtraFields(map[string]any{reasoningField: r})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case message.RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("message #%d: unknown role %q", n, m.Role)
}
