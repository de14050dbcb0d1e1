package message

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Arguments are written as ChatCLI writes them (an object; {"raw": text}
// for text that is no object) and read back as the exact text.
func TestToolCallArgumentsForms(t *testing.T) {
	for _, c := range []struct{ args, file string }{
		{`{"path":"a<b>&c"}`, `"arguments":{"path":"a<b>&c"}}`},
		{"{ \"a\" : [1, 2.50] }\n", `"arguments":{"a":[1,2.50]},"arguments_text":"{ \"a\" : [1, 2.50] }\n"}`},
		{`{"dup":1,"dup":2}`, `"arguments":{"dup":1,"dup":2}}`},
		{`not json`, `"arguments":{"raw":"not json"},"arguments_text":"not json"}`},
		{`{"cut":`, `"arguments":{"raw":"{\"cut\":"},"arguments_text":"{\"cut\":"}`},
		{``, `"arguments":{"raw":""},"arguments_text":""}`},
		{`[1]`, `"arguments":{"raw":"[1]"},"arguments_text":"[1]"}`},
	} {
		m := Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Type: "function", Name: "f", Arguments: c.args}}}
		b, err := AppendJSON(nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","name":"f",` + c.file + `]}`
		if string(b) != want {
			t.Errorf("%q written as\n%s\nwant\n%s", c.args, b, want)
		}
		var back Message
		if err := json.Unmarshal(b, &back); err != nil || back.ToolCalls[0].Arguments != c.args {
			t.Errorf("%q read back as %q (%v)", c.args, back.ToolCalls[0].Arguments, err)
		}
	}
}

// Older chatcli files hold arguments as a string and images as reference
// strings; ChatCLI's hold objects. Both read.
func TestReadsBothForms(t *testing.T) {
	old := `{"role":"user","content":"x","images":["data:image/png;base64,iVBO","https://e.com/a.png","shots/a.png","data:text/plain,hi"],` +
		`"tool_calls":[{"id":"a","name":"f","arguments":"{\"p\": 1}"},{"id":"b","name":"g","arguments":null},{"id":"c","name":"h"}]}`
	var m Message
	if err := json.Unmarshal([]byte(old), &m); err != nil {
		t.Fatal(err)
	}
	wantImages := []Image{{MediaType: "image/png", Data: "iVBO"}, {URL: "https://e.com/a.png"}, {URL: "shots/a.png"}, {URL: "data:text/plain,hi"}}
	if d := cmp.Diff(wantImages, m.Images); d != "" {
		t.Errorf("images:\n%s", d)
	}
	for i, want := range []string{`{"p": 1}`, ``, ``} {
		if got := m.ToolCalls[i].Arguments; got != want {
			t.Errorf("call %d: arguments %q, want %q", i, got, want)
		}
	}
	if m.Images[0].Ref() != "data:image/png;base64,iVBO" || m.Images[0].Size() != len(m.Images[0].Ref()) {
		t.Errorf("ref %q", m.Images[0].Ref())
	}
	cc := `{"role":"user","content":"","images":[{"media_type":"image/png","data":"AAAA","file_name":"r.png","width":4}]}`
	if err := json.Unmarshal([]byte(cc), &m); err != nil {
		t.Fatal(err)
	}
	if img := m.Images[0]; img.Data != "AAAA" || img.FileName != "r.png" || string(img.Extra["width"]) != "4" {
		t.Fatalf("image %+v", img)
	}
	b, _ := AppendJSON(nil, &m)
	if string(b) != `{"role":"user","content":"","images":[{"media_type":"image/png","data":"AAAA","file_name":"r.png","width":4}]}` {
		t.Errorf("rewritten as %s", b)
	}
	if err := json.Unmarshal([]byte(`{"role":"user","content":"","images":[7]}`), &m); err == nil {
		t.Error("an image that is a number was accepted")
	}
}

// A call in OpenAI's request shape (other tools' files) reads as the same
// call, and is written back in ChatCLI's shape; a "function" member of
// another shape is kept as it is.
func TestReadsOpenAIRequestShapeToolCalls(t *testing.T) {
	in := `{"role":"assistant","content":"","tool_calls":[` +
		`{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"list_dir","arguments":{"dir":"."}},"index":1},` +
		`{"id":"call_3","name":"own","function":"kept"}]}`
	var m Message
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_1", Type: "function", Name: "read_file", Arguments: `{"path":"a.go"}`},
		{ID: "call_2", Type: "function", Name: "list_dir", Arguments: `{"dir":"."}`, Extra: map[string]json.RawMessage{"index": json.RawMessage("1")}},
		{ID: "call_3", Name: "own", Extra: map[string]json.RawMessage{"function": json.RawMessage(`"kept"`)}},
	}
	if d := cmp.Diff(want, m.ToolCalls); d != "" {
		t.Fatalf("calls:\n%s", d)
	}
	b, _ := AppendJSON(nil, &m)
	if want := `{"id":"call_1","type":"function","name":"read_file","arguments":{"path":"a.go"}}`; !json.Valid(b) || !strings.Contains(string(b), want) {
		t.Errorf("rewritten as %s", b)
	}
}
