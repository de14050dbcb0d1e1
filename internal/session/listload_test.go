package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
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
	agreePastTheHeaderBlock(t)
}

// agreePastTheHeaderBlock: a file in chatcli's own layout whose header
// block is intact, but whose message past the first 4 KiB has a member of
// the wrong type, is listed with an error like Load's, however it came to
// be: edited in place after chatcli wrote it, put in its place as another
// file with the same size and mtime, or written so by another program. A
// sound file of chatcli's layout that chatcli did not write is listed as
// sound.
func agreePastTheHeaderBlock(t *testing.T) {
	st := newStore(t)
	sess := &Session{}
	for i := range 40 {
		sess.History = append(sess.History, message.Message{Role: message.RoleUser, Content: fmt.Sprintf("turn %d %s", i, strings.Repeat("x", 200))},
			message.Message{Role: message.RoleAssistant, Content: "ok"})
	}
	if err := st.Save("written", sess); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(st.Dir(), "written.json")
	good := readBytes(t, p)
	last := []byte(`"content":"ok"`)
	at := bytes.LastIndex(good, last)
	if at < headerBufBytes {
		t.Fatalf("the last message is at byte %d, within the header block", at)
	}
	bad := slices.Concat(good[:at], []byte(`"content":5555`), good[at+len(last):]) // the same size
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		q := filepath.Join(st.Dir(), name+".json")
		if err := os.WriteFile(q, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return q
	}
	for name, data := range map[string][]byte{"other-writer": bad, "other-sound": good, "same-time": bad} {
		write(name, data)
	}
	// Put in place of a file chatcli wrote, with its size and mtime.
	if err := os.Chtimes(write("same-time", bad), info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(st.Dir(), "same-time.json"), p); err != nil {
		t.Fatal(err)
	}
	if err := st.Save("edited", sess); err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(st.Dir(), "edited.json")
	f, err := os.OpenFile(q, os.O_WRONLY, 0) // the same inode, its mark kept
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(`"content":5555`), int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for round := range 2 { // the second from the list index
		list, err := st.List()
		if err != nil || len(list) != 4 {
			t.Fatalf("list: %v %v", list, err)
		}
		for _, h := range list {
			_, lerr := st.Load(h.Name)
			if (h.Err == nil) != (lerr == nil) || (h.Err == nil) != (h.Name == "other-sound") {
				t.Errorf("listing %d: %s: listed with error %v, Load says %v", round+1, h.Name, h.Err, lerr)
			}
		}
	}
}
