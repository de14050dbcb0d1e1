package session

import (
	"os"
	"path/filepath"
	"testing"
)

// session list and Load agree both ways: a file Load accepts is listed
// as sound, and one Load refuses is listed with an error, whatever the
// file's layout (members after chat_history, chat_history null, a
// mistyped message_count, messages with members of the wrong type).
func TestListAndLoadAgree(t *testing.T) {
	docs := map[string]string{
		"member-after":      `{"version":2,"title":"t","message_count":1,"chat_history":[{"role":"user","content":"hi"}],"extra":{"a":1}}`,
		"history-null":      `{"version":2,"title":"n","message_count":0,"chat_history":null}`,
		"count-string":      `{"version":2,"title":"m","message_count":"3","chat_history":[{"role":"user","content":"hi"}]}`,
		"count-float":       `{"chat_history":[{"role":"user","content":"hi"}],"message_count":1.5}`,
		"role-number":       `{"version":2,"message_count":1,"chat_history":[{"role":5,"content":"x"}]}`,
		"content-array":     `{"version":2,"message_count":1,"chat_history":[{"role":"user","content":["x"]}]}`,
		"tool-calls-string": `{"version":2,"message_count":1,"chat_history":[{"role":"user","content":"hi","tool_calls":"nope"}]}`,
		"tool-call-id-num":  `{"version":2,"message_count":1,"chat_history":[{"role":"tool","content":"r","tool_call_id":7}]}`,
		"images-object":     `{"version":2,"message_count":1,"chat_history":[{"role":"user","content":"hi","images":{"a":1}}]}`,
		"meta-string":       `{"version":2,"message_count":1,"chat_history":[{"role":"user","content":"hi","meta":"x"}]}`,
		"message-number":    `{"version":2,"message_count":1,"chat_history":[5]}`,
		"later-content-num": `{"version":2,"message_count":2,"chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":5}]}`,
		"first-content-obj": `{"version":2,"message_count":1,"chat_history":[{"role":"assistant","content":{"a":1}}]}`,
		"is-error-string":   `{"version":2,"message_count":1,"chat_history":[{"role":"tool","content":"r","is_error":"yes"}]}`,
		"tool-calls-items":  `{"version":2,"message_count":1,"chat_history":[{"role":"assistant","content":"","tool_calls":[5]}]}`,
		"sound-tool-call":   `{"version":2,"message_count":2,"chat_history":[{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","name":"f","arguments":{"a":1}}]},{"role":"tool","content":"ok","tool_call_id":"c1"}]}`,
	}
	st := newStore(t)
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(st.Dir(), name+".json"), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range list {
		_, lerr := st.Load(h.Name)
		if (h.Err == nil) != (lerr == nil) {
			t.Errorf("%s: listed with error %v, but Load says %v", h.Name, h.Err, lerr)
		}
	}
	if len(list) != len(docs) {
		t.Errorf("listed %d files, want %d", len(list), len(docs))
	}
}
