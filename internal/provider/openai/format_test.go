package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

func TestFormatUserImagesAndEmptyAssistant(t *testing.T) {
	p, err := toParams("m", provider.Request{Messages: []message.Message{
		{Role: message.RoleUser, Content: "look", Images: []message.Image{message.ParseImageRef("data:image/png;base64,iVBORw0KGgo="), message.ParseImageRef("https://example.com/a.jpg")}},
		{Role: message.RoleAssistant, Content: ""},
	}}, dialect{name: Name})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	want := `[{"text":"look","type":"text"},{"image_url":{"url":"data:image/png;base64,iVBORw0KGgo="},"type":"image_url"},` +
		`{"image_url":{"url":"https://example.com/a.jpg"},"type":"image_url"}]`
	if got := compact(t, req.Messages[0].Content); got != want {
		t.Errorf("user content = %s\nwant %s", got, want)
	}
	if len(req.Messages) != 1 {
		t.Errorf("an empty assistant message is sent (OpenAI refuses it): %s", b)
	}
	if _, err := toParams("m", provider.Request{Messages: []message.Message{{Role: "robot"}}}, dialect{name: Name}); err == nil {
		t.Error("unknown role accepted")
	}
}

// compact re-encodes JSON with sorted keys and no spaces.
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestImageErrorNamesTheStoredMessage(t *testing.T) {
	_, err := toParams("m", provider.Request{Messages: []message.Message{
		{Role: message.RoleUser, Content: "hi"},
		{Role: message.RoleAssistant, Content: "  "}, // not sent
		{Role: message.RoleUser, Content: "look", Images: message.ImageRefs("/nonexistent/a.png")},
	}}, dialect{name: Name})
	if err == nil || !strings.Contains(err.Error(), "message #3") {
		t.Errorf("err = %v", err)
	}
}
