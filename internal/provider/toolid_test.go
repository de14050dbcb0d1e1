package provider

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

func TestMapToolCallIDs(t *testing.T) {
	rule := IDRule{MaxLen: 20, Allowed: func(r rune) bool { return r != '.' && r != ':' && r != '~' }}
	long := strings.Repeat("é", 15)
	h := []message.Message{
		{Role: message.RoleUser, Content: "go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "functions.f:0"}, {ID: "ok_1"}}},
		{Role: message.RoleTool, ToolCallID: "functions.f:0"},
		{Role: message.RoleTool, ToolCallID: "ok_1"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "ok_1"}, {ID: long}, {ID: ""}}},
		{Role: message.RoleTool, ToolCallID: "ok_1"},
		{Role: message.RoleTool, ToolCallID: long},
		{Role: message.RoleTool, ToolCallID: ""},
	}
	orig := append([]message.Message(nil), h...)
	out := MapToolCallIDs(h, rule)
	if !reflect.DeepEqual(h, orig) || h[1].ToolCalls[0].ID != "functions.f:0" {
		t.Fatal("the input changed")
	}
	if again := MapToolCallIDs(h, rule); !reflect.DeepEqual(out, again) {
		t.Error("the mapping is not deterministic")
	}
	seen := map[string]bool{}
	for i, m := range out {
		for _, c := range m.ToolCalls {
			if !rule.accepts(c.ID) || seen[c.ID] {
				t.Errorf("message %d: id %q refused or repeated", i, c.ID)
			}
			seen[c.ID] = true
		}
	}
	if !regexp.MustCompile(`^functio_[0-9a-f]{12}$`).MatchString(out[1].ToolCalls[0].ID) {
		t.Errorf("mapped id %q keeps nothing of the original", out[1].ToolCalls[0].ID)
	}
	if out[1].ToolCalls[1].ID != "ok_1" {
		t.Errorf("an accepted id changed: %q", out[1].ToolCalls[1].ID)
	}
	for k, res := range []int{2, 3} {
		if out[res].ToolCallID != out[1].ToolCalls[k].ID {
			t.Errorf("result %d answers %q, call is %q", res, out[res].ToolCallID, out[1].ToolCalls[k].ID)
		}
	}
	for k, res := range []int{5, 6, 7} {
		if out[res].ToolCallID != out[4].ToolCalls[k].ID {
			t.Errorf("result %d answers %q, call is %q", res, out[res].ToolCallID, out[4].ToolCalls[k].ID)
		}
	}
	if err := message.Validate(out); err != nil {
		t.Error(err)
	}
}

func TestLoadImageRefusesTooLargeFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.png")
	data := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, MaxImageBytes)...)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadImage(path); err == nil || !strings.Contains(err.Error(), "5 MiB") || !strings.Contains(err.Error(), "big.png") {
		t.Errorf("err = %v", err)
	}
	im, err := LoadImage("data:image/jpg;base64,/9j/4AAQSkZJRgABAQ==")
	if err != nil || im.MediaType != "image/jpeg" || !strings.HasPrefix(im.DataURL(), "data:image/jpeg;base64,/9j/") {
		t.Errorf("image/jpg: %+v, %v", im, err)
	}
}
