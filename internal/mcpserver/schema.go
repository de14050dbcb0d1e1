package mcpserver

import "github.com/google/jsonschema-go/jsonschema"

// outputSchema is the output schema of a tool returning T, with single
// types: jsonschema.For gives a Go slice the type ["null","array"], which
// some clients refuse, while these results omit an empty list instead of
// sending null.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a static type: fails in every test run or never
	}
	singleTypes(s)
	return s
}

// singleTypes replaces each ["null", X] type of s and its members by X.
func singleTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
}
