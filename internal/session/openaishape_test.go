package session

import (
	"os"
	"path/filepath"
	"testing"
)

// A file whose tool calls are in OpenAI's request shape
// ("function":{"name","arguments"}) loads with each call's name and
// arguments, is listed as sound, and is saved back in ChatCLI's shape.
func TestOpenAIShapeToolCallsLoadWithTheirNames(t *testing.T) {
	doc := `{"version":2,"message_count":3,"chat_history":[{"role":"user","content":"what is here?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_9","type":"function","function":{"name":"list_dir","arguments":"{\"dir\":\".\"}"}}]},` +
		`{"role":"tool","content":"a.go","tool_call_id":"call_9"}]}`
	st := newStore(t)
	if err := os.WriteFile(filepath.Join(st.Dir(), "foreign.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := st.Load("foreign")
	if err != nil {
		t.Fatal(err)
	}
	if c := s.History[1].ToolCalls; len(c) != 1 || c[0].Name != "list_dir" || c[0].Arguments != `{"dir":"."}` || c[0].ID != "call_9" {
		t.Fatalf("calls read as %+v", c)
	}
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].Err != nil {
		t.Fatalf("listed as %+v (%v)", list, err)
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := Decode(out); err != nil || back.History[1].ToolCalls[0].Name != "list_dir" {
		t.Fatalf("saved back as %s (%v)", out, err)
	}
}
