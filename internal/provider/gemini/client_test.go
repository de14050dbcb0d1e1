package gemini

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

func newClient(t *testing.T, s *providertest.Server) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "test-key", Model: "gemini-test", BaseURL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestChatTurnAndToolCallThroughTheSDK: a streamed chat turn, then a tool
// call and its result, through the real SDK against the strict fake.
func TestChatTurnAndToolCallThroughTheSDK(t *testing.T) {
	s := providertest.NewGemini(t,
		providertest.Reply{Text: "Hello there, person."},
		providertest.Reply{ToolCalls: []message.ToolCall{{ID: "fc1", Name: "read_file", Arguments: `{"path":"go.mod"}`}}},
		providertest.Reply{Text: "It is a Go module."})
	c := newClient(t, s)
	var deltas []string
	h := []message.Message{{Role: message.RoleSystem, Content: "Be brief."}, {Role: message.RoleUser, Content: "hi"}}
	resp, err := c.Chat(context.Background(), provider.Request{Messages: h}, func(d string) { deltas = append(deltas, d) })
	if err != nil || resp.Message.Content != "Hello there, person." || len(deltas) < 2 || resp.Usage.InputTokens < 20 || resp.StopReason != "STOP" {
		t.Fatalf("chat: %+v %q %v", resp, deltas, err)
	}
	if body := string(s.Body(0)); !strings.Contains(body, `"systemInstruction"`) || !strings.Contains(body, "Be brief.") {
		t.Errorf("system instruction not sent: %s", body)
	}
	tools := []provider.Tool{{Name: "read_file", Description: "read a file"}}
	h = append(h, resp.Message, message.Message{Role: message.RoleUser, Content: "what is go.mod?"})
	resp, err = c.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil)
	if err != nil || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Arguments != `{"path":"go.mod"}` {
		t.Fatalf("tool call: %+v %v", resp, err)
	}
	h = append(h, resp.Message, message.Message{Role: message.RoleTool, ToolCallID: "fc1", Content: "module x"})
	resp, err = c.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil)
	if err != nil || resp.Message.Content != "It is a Go module." {
		t.Fatalf("after the result: %+v %v (refusals %q)", resp, err, s.Refusals())
	}
	if body := string(s.Body(2)); !strings.Contains(body, `"functionResponse"`) || !strings.Contains(body, `"name":"read_file"`) {
		t.Errorf("result not sent as a functionResponse: %s", body)
	}
}

func TestErrorsAreClassified(t *testing.T) {
	s := providertest.NewGemini(t)
	s.MaxPromptBytes = 10
	_, err := newClient(t, s).Chat(context.Background(), provider.Request{Messages: []message.Message{{Role: message.RoleUser, Content: "hello, long prompt"}}}, nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength || pe.Status != 400 || !strings.Contains(err.Error(), "input token count") {
		t.Errorf("context length: %v", err)
	}
	if _, err := New(Config{Model: "m"}); err == nil {
		t.Error("no key accepted")
	}
}
