package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// toParams converts a history into Messages API parameters.
//
// The Messages API takes system text in its top-level "system" parameter
// and wants user and assistant turns to alternate, so the conversion is not
// one to one:
//
//   - every system message, wherever it appears (also mid-conversation),
//     goes into the top-level "system" parameter: their contents joined in
//     order by a blank line, as one text block. A mid-conversation system
//     message so loses its place: the model reads it as a standing
//     instruction, not as something said at that point;
//   - the history first goes through normalize (normalize.go), which maps
//     tool-call ids and keeps only the reasoning source ("<provider>/<model>")
//     wrote;
//   - user content becomes a text block, and each image an image block (a
//     data URL or a file as a base64 source with the media type its bytes
//     show, an http(s) URL as a url source); an image that cannot be sent
//     is an error naming the message;
//   - assistant content becomes a text block, after the message's stored
//     thinking blocks when it has any, and each tool call a tool_use
//     block {id, name, input}; input is the call's arguments when they are
//     a JSON object, {} when empty, and {"arguments": "<text>"} otherwise;
//   - a tool message becomes a tool_result block {tool_use_id, content} in
//     a user turn;
//   - consecutive turns of the same role are merged into one (so the results
//     of parallel tool calls share one user turn), and in a user turn the
//     tool_result blocks come before any text, as the API requires;
//   - empty and whitespace-only text is never sent (the API refuses such
//     text blocks), and a turn left without blocks is dropped.
//
// A tool message whose meta.tool_error is set (message.Request keeps that
// one flag) becomes a tool_result with "is_error": true, as the API defines
// for a failed call.
//
// Each offered tool (offered) becomes {name, description, input_schema}, the
// schema's "properties" and "required" in their fields and its other
// keywords alongside, and tool_choice is {"type":"auto"} (parallel calls
// allowed). The API refuses tool_use and tool_result blocks in a request
// that does not define their tools, so a tool named in the history but not
// offered (a call made in another mode) is declared too, with an open input
// schema and a description saying it is not available now; when no tool is
// offered at all tool_choice is "none": the model sees the history but
// cannot call a tool in this reply.
func toParams(model, source string, maxTokens int64, msgs []message.Message, offered []provider.Tool) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{Model: anthropic.Model(model), MaxTokens: maxTokens}
	var system, tools []string
	var turns []turn
	seen := map[string]bool{}
	for i, m := range normalize(msgs, source) {
		t := turn{user: m.Role != message.RoleAssistant}
		switch m.Role {
		case message.RoleSystem:
			if m.Content != "" {
				system = append(system, m.Content)
			}
			continue
		case message.RoleUser:
			t.blocks = appendText(t.blocks, m.Content)
			for _, img := range m.Images {
				b, err := imageBlock(i+1, img.Ref())
				if err != nil {
					return p, err
				}
				t.blocks = append(t.blocks, b)
			}
		case message.RoleAssistant:
			t.blocks = appendText(reasoningBlocks(m), m.Content)
			for _, c := range m.ToolCalls {
				t.blocks = append(t.blocks, anthropic.NewToolUseBlock(c.ID, toolInput(c.Arguments), c.Name))
				if !seen[c.Name] {
					seen[c.Name] = true
					tools = append(tools, c.Name)
				}
			}
		case message.RoleTool:
			r := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
			if m.Meta != nil && m.Meta.ToolError {
				r.IsError = anthropic.Bool(true)
			}
			if hasText(m.Content) {
				r.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Content}}}
			}
			t.blocks = append(t.blocks, anthropic.ContentBlockParamUnion{OfToolResult: &r})
		default:
			return p, fmt.Errorf("message #%d: unknown role %q", i+1, m.Role)
		}
		if len(t.blocks) == 0 {
			continue
		}
		if n := len(turns); n > 0 && turns[n-1].user == t.user {
			turns[n-1].blocks = append(turns[n-1].blocks, t.blocks...)
			continue
		}
		turns = append(turns, t)
	}
	for _, t := range turns {
		if t.user {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(toolResultsFirst(t.blocks)...))
		} else {
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(t.blocks...))
		}
	}
	if len(system) > 0 {
		p.System = []anthropic.TextBlockParam{{Text: strings.Join(system, "\n\n")}}
	}
	declared := map[string]bool{}
	for _, t := range offered {
		tp, err := toolParam(t)
		if err != nil {
			return p, err
		}
		declared[t.Name] = true
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	for _, name := range tools {
		if declared[name] {
			continue
		}
		tp := anthropic.ToolParam{Name: name, InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}}
		if len(offered) > 0 {
			tp.Description = anthropic.String("Called earlier in this conversation; not available now. Do not call it.")
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	switch {
	case len(offered) > 0:
		p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{}}
	case len(tools) > 0:
		p.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
	}
	return p, nil
}

// toolParam converts an offered tool: the schema's "properties" and
// "required" go to their fields, its other keywords (additionalProperties,
// $defs, …) alongside them; "type" is always "object".
func toolParam(t provider.Tool) (anthropic.ToolParam, error) {
	schema, err := t.Schema()
	if err != nil {
		return anthropic.ToolParam{}, err
	}
	in := anthropic.ToolInputSchemaParam{Properties: schema["properties"]}
	if in.Properties == nil {
		in.Properties = map[string]any{}
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				in.Required = append(in.Required, s)
			}
		}
	}
	for k, v := range schema {
		if k == "type" || k == "properties" || k == "required" {
			continue
		}
		if in.ExtraFields == nil {
			in.ExtraFields = map[string]any{}
		}
		in.ExtraFields[k] = v
	}
	tp := anthropic.ToolParam{Name: t.Name, InputSchema: in}
	if t.Description != "" {
		tp.Description = anthropic.String(t.Description)
	}
	return tp, nil
}

// turn is one message of the request being built: a user turn (user text
// and tool results) or an assistant turn.
type turn struct {
	user   bool
	blocks []anthropic.ContentBlockParamUnion
}

func appendText(blocks []anthropic.ContentBlockParamUnion, text string) []anthropic.ContentBlockParamUnion {
	if !hasText(text) {
		return blocks
	}
	return append(blocks, anthropic.NewTextBlock(text))
}

// toolResultsFirst moves the tool_result blocks of a user turn before its
// other blocks, keeping the order within each group.
func toolResultsFirst(blocks []anthropic.ContentBlockParamUnion) []anthropic.ContentBlockParamUnion {
	out := make([]anthropic.ContentBlockParamUnion, 0, len(blocks))
	for _, b := range blocks {
		if b.OfToolResult != nil {
			out = append(out, b)
		}
	}
	for _, b := range blocks {
		if b.OfToolResult == nil {
			out = append(out, b)
		}
	}
	return out
}

// toolInput returns the tool_use input for a call's raw arguments.
func toolInput(args string) any {
	trimmed := strings.TrimSpace(args)
	if trimmed == "" {
		return map[string]any{}
	}
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	return map[string]any{"arguments": args}
}
