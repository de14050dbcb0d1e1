package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"image/png"
	"strings"

	"google.golang.org/genai"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// toRequest converts a request into Gemini "contents" and config.
//
// The history is first normalised for the request only: tool-call ids are
// made unique within it (provider.MapToolCallIDs: Gemini pairs a
// functionResponse with its functionCall by id), and reasoning stored by
// another provider or model is dropped. Then:
//
//   - system messages, wherever they are, join the systemInstruction (a
//     blank line between them), as Gemini has no system role in contents;
//   - user text becomes a text part, each image an inlineData part with the
//     media type its bytes show (provider.LoadImage; a GIF, which Gemini
//     does not take, is sent as PNG); an http(s) image, which the Gemini
//     API does not fetch, is named in a text part;
//   - an assistant message becomes a "model" turn: a text part, and a
//     functionCall part {id, name, args} per tool call (args the call's
//     JSON object, {"arguments": "<text>"} otherwise), with its stored
//     thoughtSignature when this model wrote it (Gemini 3 refuses the
//     function calls of a turn without their signatures);
//   - a tool message becomes a functionResponse part {id, name, response}
//     in a "user" turn, response {"output": …} or, for a failed call,
//     {"error": …} (the keys the API documents);
//   - empty and whitespace-only text is not sent (Gemini refuses a turn
//     whose parts are empty), a turn left without parts is dropped, and
//     consecutive turns of one role are merged, so the responses to
//     parallel calls share the turn right after the calls, as required.
//
// Offered tools become functionDeclarations with parametersJsonSchema;
// tools the history calls that are not offered are declared too, with an
// open schema, and when none is offered functionCallingConfig is NONE.
func toRequest(model string, req provider.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	msgs := provider.MapToolCallIDs(req.Messages, provider.IDRule{})
	cfg := &genai.GenerateContentConfig{}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}
	var system []string
	var contents []*genai.Content
	names := map[string]string{} // call id → tool name
	source := sourceOf(model)
	for i, m := range msgs {
		var parts []*genai.Part
		role := genai.RoleUser
		switch m.Role {
		case message.RoleSystem:
			if strings.TrimSpace(m.Content) != "" {
				system = append(system, m.Content)
			}
			continue
		case message.RoleUser:
			parts = appendText(parts, m.Content)
			for _, ref := range m.Images {
				im, err := provider.LoadImage(ref)
				if err != nil {
					return nil, nil, fmt.Errorf("message #%d: %w", i+1, err)
				}
				if im.URL != "" {
					parts = append(parts, &genai.Part{Text: "[image: " + im.URL + "]"})
					continue
				}
				blob, err := inline(im)
				if err != nil {
					return nil, nil, fmt.Errorf("message #%d: %w", i+1, err)
				}
				parts = append(parts, &genai.Part{InlineData: blob})
			}
		case message.RoleAssistant:
			role = genai.RoleModel
			parts = appendText(parts, m.Content)
			sigs := signaturesOf(m, source)
			for k, c := range m.ToolCalls {
				names[c.ID] = c.Name
				parts = append(parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: c.ID, Name: c.Name, Args: args(c.Arguments)},
					ThoughtSignature: sigs[k]})
			}
		case message.RoleTool:
			key := "output"
			if m.Meta != nil && m.Meta.ToolError {
				key = "error"
			}
			parts = append(parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: m.ToolCallID, Name: names[m.ToolCallID],
				Response: map[string]any{key: m.Content}}})
		default:
			return nil, nil, fmt.Errorf("message #%d: unknown role %q", i+1, m.Role)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(contents); n > 0 && contents[n-1].Role == role {
			contents[n-1].Parts = append(contents[n-1].Parts, parts...)
			continue
		}
		contents = append(contents, &genai.Content{Role: role, Parts: parts})
	}
	if len(system) > 0 {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: strings.Join(system, "\n\n")}}}
	}
	if err := declareTools(cfg, msgs, req.Tools); err != nil {
		return nil, nil, err
	}
	return contents, cfg, nil
}

// declareTools sets the tools of cfg: the offered ones, and those the
// history calls without offering them.
func declareTools(cfg *genai.GenerateContentConfig, msgs []message.Message, offered []provider.Tool) error {
	var decls []*genai.FunctionDeclaration
	seen := map[string]bool{}
	for _, t := range offered {
		schema, err := t.Schema()
		if err != nil {
			return err
		}
		seen[t.Name] = true
		decls = append(decls, &genai.FunctionDeclaration{Name: t.Name, Description: t.Description, ParametersJsonSchema: schema})
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if !seen[c.Name] {
				seen[c.Name] = true
				decls = append(decls, &genai.FunctionDeclaration{Name: c.Name, Description: "Called earlier in this conversation; not available now. Do not call it.",
					ParametersJsonSchema: map[string]any{"type": "object", "properties": map[string]any{}}})
			}
		}
	}
	if len(decls) == 0 {
		return nil
	}
	cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	if len(offered) == 0 {
		cfg.ToolConfig = &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeNone}}
	}
	return nil
}

func appendText(parts []*genai.Part, text string) []*genai.Part {
	if strings.TrimSpace(text) == "" {
		return parts
	}
	return append(parts, &genai.Part{Text: text})
}

// args returns the functionCall args for a call's raw arguments.
func args(raw string) map[string]any {
	var a map[string]any
	if strings.TrimSpace(raw) == "" || json.Unmarshal([]byte(raw), &a) == nil && a != nil {
		if a == nil {
			a = map[string]any{}
		}
		return a
	}
	return map[string]any{"arguments": raw}
}

// toolCall converts a functionCall of a reply; its args are written back
// as a JSON object, as ChatCLI stores arguments.
func toolCall(fc *genai.FunctionCall) message.ToolCall {
	b, err := json.Marshal(fc.Args)
	if err != nil || fc.Args == nil {
		b = []byte("{}")
	}
	return message.ToolCall{ID: fc.ID, Type: "function", Name: fc.Name, Arguments: message.ValidUTF8(string(b))}
}

// callSignature is the thoughtSignature of tool call Index of a reply, as
// stored in message.Reasoning.Blocks.
type callSignature struct {
	Index     int    `json:"call"`
	Signature []byte `json:"thought_signature"`
}

// storedSignatures returns the reply's signatures for its meta, nil when
// it has none.
func storedSignatures(sigs []callSignature, source string) *message.Reasoning {
	if len(sigs) == 0 {
		return nil
	}
	raw, _ := json.Marshal(sigs)
	return &message.Reasoning{Source: source, Blocks: raw}
}

// signaturesOf returns the stored signature of each tool call of m, by
// index, when this model wrote them.
func signaturesOf(m message.Message, source string) map[int][]byte {
	out := map[int][]byte{}
	if m.Meta == nil || m.Meta.Reasoning == nil || m.Meta.Reasoning.Source != source {
		return out
	}
	var sigs []callSignature
	_ = json.Unmarshal(m.Meta.Reasoning.Blocks, &sigs)
	for _, s := range sigs {
		out[s.Index] = s.Signature
	}
	return out
}

// sourceOf names the writer of reasoning: "googleai/<model>".
func sourceOf(model string) string { return Name + "/" + model }

// inline returns an image's bytes as Gemini takes them: PNG, JPEG and WebP
// as they are, a GIF (not among the image types Gemini documents) as its
// first frame in PNG.
func inline(im provider.Image) (*genai.Blob, error) {
	if im.MediaType != "image/gif" {
		return &genai.Blob{MIMEType: im.MediaType, Data: im.Data}, nil
	}
	frame, err := gif.Decode(bytes.NewReader(im.Data))
	if err != nil {
		return nil, fmt.Errorf("%w: GIF: %v", provider.ErrImage, err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, frame); err != nil {
		return nil, fmt.Errorf("%w: GIF to PNG: %v", provider.ErrImage, err)
	}
	return &genai.Blob{MIMEType: "image/png", Data: b.Bytes()}, nil
}
