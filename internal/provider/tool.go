package provider

import (
	"encoding/json"
	"fmt"
)

// Tool is a function the model may call. It is sent with a Request in the
// provider's own shape: an OpenAI "function" tool {name, description,
// parameters}, an Anthropic tool {name, description, input_schema}.
type Tool struct {
	// Name is the function name the model calls it by: 1-64 characters
	// of a-z, A-Z, 0-9, '_' and '-' (the rule both the OpenAI and the
	// Anthropic APIs enforce), e.g. "read_file".
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Parameters is a JSON Schema object describing the arguments (the
	// draft 2020-12 subset both APIs accept: "type":"object",
	// "properties", "required"). Empty means a tool without arguments
	// ({"type":"object","properties":{}}).
	Parameters json.RawMessage
}

// Schema returns Parameters decoded as a JSON object, for SDKs that take
// the schema as a map. Empty Parameters give {"type":"object",
// "properties":{}}. Parameters that are not a JSON object, or an object
// whose "type" is not "object", are an error naming the tool.
func (t Tool) Schema() (map[string]any, error) {
	if len(t.Parameters) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var s map[string]any
	if err := json.Unmarshal(t.Parameters, &s); err != nil || s == nil {
		return nil, fmt.Errorf("tool %q: parameters are not a JSON Schema object", t.Name)
	}
	if typ, ok := s["type"]; ok && typ != "object" {
		return nil, fmt.Errorf("tool %q: parameters schema has type %v, want \"object\"", t.Name, typ)
	}
	return s, nil
}
