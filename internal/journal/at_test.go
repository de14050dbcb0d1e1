package journal

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// TestMessageAtReadsWhatRecordAtReads: MessageAt returns every message
// record's message as RecordAt does, in plaintext and sealed journals,
// for messages of text alone (escapes, other scripts) and of more (tool
// calls, meta, unknown members, decoded by encoding/json), and RecordAt's
// error for a position that holds no such record.
func TestMessageAtReadsWhatRecordAtReads(t *testing.T) {
	history := []message.Message{
		{Role: message.RoleUser, Content: "plain words"},
		{Role: message.RoleUser, Content: "with meta", Meta: &message.Meta{Mode: "chat"}},
		{Role: message.RoleAssistant, Content: "line one\nline \"two\"\t\\ é ฐานข้อมูล 😀 </script>"},
		{Role: message.RoleAssistant, Content: "calling", ToolCalls: []message.ToolCall{{ID: "c1", Type: "function", Name: "grep", Arguments: `{"q":"x"}`}}},
		{Role: message.RoleTool, Content: "result", ToolCallID: "c1", Meta: &message.Meta{ToolError: true}},
		{Role: message.RoleUser, Content: ""},
	}
	for _, key := range []seal.Key{{}, testKey(t, 1)} {
		dir := t.TempDir()
		j, _, err := Open(dir, NewID(), key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Sync(history, ""); err != nil {
			t.Fatal(err)
		}
		n := 0
		_, _, err = ScanAfter(j.Path(), key, Pos{}, func(r Record, before Pos) error {
			if r.Type != TypeMessage {
				return nil
			}
			n++
			got, err := MessageAt(j.Path(), key, before)
			if err != nil {
				t.Errorf("sealed %v, record %d: %v", !key.IsZero(), r.Seq, err)
			} else if diff := cmp.Diff(r.Message, got); diff != "" {
				t.Errorf("sealed %v, record %d (-RecordAt +MessageAt):\n%s", !key.IsZero(), r.Seq, diff)
			}
			if messageAtLine(j.Path(), key, before) == nil {
				t.Errorf("sealed %v, record %d: read by RecordAt, not from its line", !key.IsZero(), r.Seq)
			}
			wrong := Pos{Seq: before.Seq + 40, Offset: before.Offset + 1, Line: before.Line}
			_, rerr := RecordAt(j.Path(), key, wrong)
			if _, err := MessageAt(j.Path(), key, wrong); rerr == nil || !errors.Is(err, ErrCorrupt) {
				t.Errorf("a position of no record: MessageAt %v, RecordAt %v", err, rerr)
			}
			return nil
		})
		if err != nil || n != len(history) {
			t.Fatalf("%d message records, %v", n, err)
		}
	}
}
