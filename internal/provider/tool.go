package provider

import "encoding/json"

// Tool is a function the model may call.
type Tool struct {
	// Name is the function name the model calls, e.g. "read_file".
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Parameters is a JSON Schema object (draft 2020-12 subset: type
	// object, properties, required) describing the arguments.
	Parameters json.RawMessage
}
