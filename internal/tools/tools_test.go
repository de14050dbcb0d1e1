package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestToolsPerMode(t *testing.T) {
	b := newBox(t, Options{CommandTimeout: 90 * time.Second})
	names := func(mode string) []string {
		var out []string
		for _, tool := range b.Tools(mode) {
			out = append(out, tool.Name)
		}
		return out
	}
	want := map[string][]string{
		"agent": {"read_file", "list_dir", "search_files", "run_command"},
		"coder": {"read_file", "list_dir", "search_files", "write_file", "edit_file", "run_command"},
		"chat":  nil,
		"":      nil,
		"Coder": nil,
	}
	for mode, w := range want {
		if got := names(mode); !slices.Equal(got, w) {
			t.Errorf("mode %q: %v, want %v", mode, got, w)
		}
	}
	// Calls of a tool the mode does not offer are refused before anything
	// happens.
	for _, mode := range []string{"agent", "chat"} {
		got, isErr := runMode(t, b, mode, "write_file", map[string]any{"path": "x", "content": "y"})
		if !isErr || !strings.Contains(got, "not available in") {
			t.Errorf("%s: %q", mode, got)
		}
	}
	got, isErr := run(t, b, "delete_everything", "{}")
	if !isErr || !strings.Contains(got, `unknown tool "delete_everything"`) || !strings.Contains(got, "edit_file") {
		t.Errorf("%q", got)
	}
}

// TestParametersAreSchemas checks every tool's Parameters is a JSON Schema
// object: type object, a description for every property, required
// properties that exist, no other properties allowed.
func TestParametersAreSchemas(t *testing.T) {
	b := newBox(t, Options{CommandTimeout: 90 * time.Second})
	for _, tool := range b.Tools(ModeCoder) {
		var s struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Type        string `json:"type"`
				Description string `json:"description"`
			} `json:"properties"`
			Required             []string `json:"required"`
			AdditionalProperties *bool    `json:"additionalProperties"`
		}
		dec := json.NewDecoder(strings.NewReader(string(tool.Parameters)))
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if s.Type != "object" || len(s.Properties) == 0 || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: %s", tool.Name, tool.Parameters)
		}
		for name, p := range s.Properties {
			if !slices.Contains([]string{"string", "integer", "number", "boolean"}, p.Type) || p.Description == "" {
				t.Errorf("%s.%s: %+v", tool.Name, name, p)
			}
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", tool.Name, r)
			}
		}
		if len(tool.Description) < 80 || strings.Contains(tool.Description, "{timeout}") || strings.Contains(string(tool.Parameters), "{timeout}") {
			t.Errorf("%s: description %q", tool.Name, tool.Description)
		}
		if tool.Name == "run_command" && !strings.Contains(tool.Description, "default 90 seconds") {
			t.Errorf("run_command does not state its timeout: %q", tool.Description)
		}
	}
	// Each call returns fresh values a caller may change.
	b.Tools(ModeCoder)[0].Parameters[0] = 'X'
	if b.Tools(ModeCoder)[0].Parameters[0] != '{' {
		t.Error("Tools shares its Parameters")
	}
}

func TestBadArguments(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{"f.txt": original})
	bad := []string{`not json`, `[]`, `"path"`, `{"path": 3}`, `{"path": "f.txt"} {}`, `{"path": "f.txt", "file_path": "x"}`, `{"path": "f.txt"`, `null x`}
	for _, s := range specs {
		for _, args := range bad {
			got, isErr := run(t, b, s.tool.Name, args)
			if !isErr || !strings.HasPrefix(got, "error: bad arguments for "+s.tool.Name) {
				t.Errorf("%s %s: %v %q", s.tool.Name, args, isErr, got)
			}
		}
	}
	if readString(t, b.Root()+"/f.txt") != original {
		t.Fatal("a bad call changed a file")
	}
	// Empty arguments read as {}: a tool without required arguments runs.
	if got, isErr := run(t, b, "list_dir", ""); isErr || got != "f.txt" {
		t.Errorf("%v %q", isErr, got)
	}
}
