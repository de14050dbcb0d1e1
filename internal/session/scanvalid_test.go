package session

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/message"
)

// streamChecked reports whether a jsonscan.Stream accepts raw as one
// value: surelyDecodes is only given such values.
func streamChecked(raw []byte) bool {
	st := jsonscan.NewStream(bytes.NewReader(raw), nil)
	return st.Skip() == nil && st.End() == nil
}

// checkSurely checks surelyDecodes against json.Unmarshal for both
// member lists: it may say "sure" only of values that decode.
func checkSurely(t *testing.T, raw []byte) (tools, images bool) {
	t.Helper()
	if !streamChecked(raw) {
		return false, false
	}
	tools, images = surelyDecodes(raw, toolCallStrings, false), surelyDecodes(raw, imageStrings, true)
	if err := json.Unmarshal(raw, &[]message.ToolCall{}); tools && err != nil {
		t.Errorf("tool_calls %s: sure it decodes, json.Unmarshal says %v", raw, err)
	}
	if err := json.Unmarshal(raw, &[]message.Image{}); images && err != nil {
		t.Errorf("images %s: sure it decodes, json.Unmarshal says %v", raw, err)
	}
	return tools, images
}

func TestSurelyDecodesAgreesWithUnmarshal(t *testing.T) {
	for _, c := range []struct {
		raw           string
		tools, images bool
	}{
		{`[]`, true, true},
		{` [ ] `, true, true},
		{`[{"id":"call_1","type":"function","name":"read_file","arguments":{"path":"a.go","n":[1,2.5e3,true,null]}}]`, true, true},
		{"[\n  {\n    \"id\": \"c\",\n    \"name\": \"x\",\n    \"arguments\": \"{\\\"a\\\":1}\",\n    \"raw\": \"<tool>\\u00e9</tool>\"\n  }\n]", true, true},
		{`[{"media_type":"image/png","data":"iVBORw0KGgo="},"https://example.com/a.png"]`, false, true},
		{`[{"id":null,"arguments_text":null}]`, true, true},
		{`[{"id":1}]`, false, true},
		{`[{"media_type":1}]`, true, false},
		{`[{"ID":"x"}]`, false, false},
		{`[{"i\u0064":"x"}]`, false, false},
		{`[{"id":"bad \x escape"}]`, false, false},
		{"[{\"id\":\"tab\there\"}]", false, false},
		{`[{"arguments":{"k":"bad \q"}}]`, false, false},
		{`[{"arguments":"\ud800"}]`, true, true},
		{`[null]`, false, false},
		{`[1]`, false, false},
		{`[{"function":{"name":"x","arguments":"{}"}}]`, true, true},
	} {
		tools, images := checkSurely(t, []byte(c.raw))
		if tools != c.tools || images != c.images {
			t.Errorf("%s: sure of tool_calls %v, of images %v; want %v, %v", c.raw, tools, images, c.tools, c.images)
		}
	}
}

// FuzzSurelyDecodes: surelyDecodes never vouches for a value
// json.Unmarshal refuses.
func FuzzSurelyDecodes(f *testing.F) {
	f.Add([]byte(`[{"id":"call_1","type":"function","name":"read_file","arguments":{"path":"a.go"}}]`))
	f.Add([]byte(`[{"media_type":"image/png","data":"iVBORw0KGgo="},"https://example.com/a.png"]`))
	f.Fuzz(func(t *testing.T, raw []byte) { checkSurely(t, raw) })
}
