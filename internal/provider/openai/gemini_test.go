package openai

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/gif"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

func newGemini(t *testing.T, s *providertest.Server, key string) *Client {
	t.Helper()
	c, err := New(Config{APIKey: key, Model: "gemini-test", BaseURL: s.URL + "/v1beta/openai/", MaxRetries: -1, Preset: PresetGemini})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGeminiTurnAndToolCall: a streamed chat turn, then a tool call and
// its result, against the strict fake of Gemini's OpenAI-compatible
// endpoint, Gemini 3's thought-signature rule on.
func TestGeminiTurnAndToolCall(t *testing.T) {
	s := providertest.NewGemini(t,
		providertest.Reply{Text: "Hello there, person."},
		providertest.Reply{Reasoning: "I should read it.", ToolCalls: []message.ToolCall{{ID: "fc1", Name: "read_file", Arguments: `{"path":"go.mod"}`}}},
		providertest.Reply{Text: "It is a Go module."})
	s.Thinking = true
	c := newGemini(t, s, "test-key")
	if c.Name() != "googleai" {
		t.Errorf("name %q", c.Name())
	}
	var deltas []string
	h := []message.Message{{Role: message.RoleSystem, Content: "Be brief."}, {Role: message.RoleUser, Content: "hi"}}
	resp, err := c.Chat(context.Background(), provider.Request{Messages: h}, func(d string) { deltas = append(deltas, d) })
	if err != nil || resp.Message.Content != "Hello there, person." || len(deltas) < 2 || resp.Usage.InputTokens < 20 || resp.StopReason != "stop" {
		t.Fatalf("chat: %+v %q %v", resp, deltas, err)
	}
	tools := []provider.Tool{{Name: "read_file", Description: "read a file"}}
	h = append(h, resp.Message, message.Message{Role: message.RoleUser, Content: "what is go.mod?"})
	resp, err = c.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil)
	if err != nil || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Arguments != `{"path":"go.mod"}` {
		t.Fatalf("tool call: %+v %v", resp, err)
	}
	if r := resp.Message.Meta; r == nil || r.Reasoning == nil || r.Reasoning.Source != "googleai/gemini-test" || len(r.Reasoning.Blocks) == 0 {
		t.Fatalf("thought signature not kept: %+v", resp.Message.Meta)
	}
	h = append(h, resp.Message, message.Message{Role: message.RoleTool, ToolCallID: "fc1", Content: "module x"})
	resp, err = c.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil)
	if err != nil || resp.Message.Content != "It is a Go module." {
		t.Fatalf("after the result: %+v %v (refusals %q)", resp, err, s.Refusals())
	}
	sig := base64.StdEncoding.EncodeToString([]byte(providertest.Signature("I should read it.")))
	if body := string(s.Body(2)); !strings.Contains(body, `"extra_content":{"google":{"thought_signature":"`+sig+`"}}`) ||
		!strings.Contains(body, `"tool_call_id":"fc1"`) {
		t.Errorf("the call's signature or result not sent back: %s", body)
	}
	// Another model's signatures are not sent: Gemini 3 refuses the step.
	other := newGemini(t, s, "test-key")
	other.model = "gemini-other"
	if _, err := other.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil); err == nil ||
		!strings.Contains(err.Error(), "thought_signature") {
		t.Errorf("another model's signature was sent: %v", err)
	}
}

// TestGeminiImagesAndErrors: a GIF goes as PNG and an http image as text,
// which the strict fake accepts; a missing key and an overlong prompt are
// classified from Gemini's [{"error":…}] bodies.
func TestGeminiImagesAndErrors(t *testing.T) {
	var b bytes.Buffer
	if err := gif.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2)), nil); err != nil {
		t.Fatal(err)
	}
	s := providertest.NewGemini(t)
	h := []message.Message{{Role: message.RoleUser, Images: message.ImageRefs("data:image/gif;base64,"+base64.StdEncoding.EncodeToString(b.Bytes()), "https://example.com/a.png")}}
	if _, err := newGemini(t, s, "k").Chat(context.Background(), provider.Request{Messages: h}, nil); err != nil {
		t.Fatalf("images refused: %v", err)
	}
	if body := string(s.Body(0)); !strings.Contains(body, "data:image/png;base64,") || !strings.Contains(body, "[image: https://example.com/a.png]") {
		t.Errorf("images: %s", body)
	}
	short := []message.Message{{Role: message.RoleUser, Content: "hello, long prompt"}}
	var pe *provider.Error
	if _, err := newGemini(t, s, "").Chat(context.Background(), provider.Request{Messages: short}, nil); !errors.As(err, &pe) ||
		pe.Kind != provider.KindAuth || !strings.Contains(err.Error(), "API Key") {
		t.Errorf("no key: %v", err)
	}
	s.MaxPromptBytes = 10
	_, err := newGemini(t, s, "k").Chat(context.Background(), provider.Request{Messages: short}, nil)
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength || pe.Status != 400 || !strings.Contains(err.Error(), "input token count") ||
		!strings.HasPrefix(err.Error(), "googleai:") {
		t.Errorf("context length: %v", err)
	}
}
