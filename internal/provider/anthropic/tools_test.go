package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

var listTool = provider.Tool{Name: "list_files", Description: "List the files of a folder.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)}

// TestChatOffersToolsAndMarksFailedResults: the offered tools go out with
// their schemas and tool_choice auto; a tool named only in the history is
// declared so the request is valid; a failed result carries is_error.
func TestChatOffersToolsAndMarksFailedResults(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { sse(w, textReply("done")...) })
	h := message.Request([]message.Message{
		{Role: message.RoleUser, Content: "go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "toolu_a", Name: "list_files", Arguments: `{"path":"."}`},
			{ID: "toolu_b", Name: "write_file", Arguments: `{"path":"x"}`}}},
		{Role: message.RoleTool, ToolCallID: "toolu_a", Content: "a.txt"},
		{Role: message.RoleTool, ToolCallID: "toolu_b", Content: "refused: not approved", Meta: &message.Meta{ToolError: true, Mode: "agent"}},
	})
	if _, err := newClient(t, f.URL, nil).Chat(context.Background(), provider.Request{Messages: h, Tools: []provider.Tool{listTool}}, nil); err != nil {
		t.Fatal(err)
	}
	req := f.last()
	if len(req.Tools) != 2 || req.Tools[0].Name != "list_files" || req.Tools[0].Description != listTool.Description ||
		req.Tools[1].Name != "write_file" {
		t.Fatalf("tools = %+v", req.Tools)
	}
	s := req.Tools[0].InputSchema
	if s["type"] != "object" || s["additionalProperties"] != false || len(s["required"].([]any)) != 1 ||
		s["properties"].(map[string]any)["path"] == nil {
		t.Errorf("input_schema = %v", s)
	}
	if req.ToolChoice["type"] != "auto" {
		t.Errorf("tool_choice = %v", req.ToolChoice)
	}
	results := req.Messages[2].blocks()
	if len(results) != 2 || results[0].ToolUseID != "toolu_a" || results[0].IsError != nil ||
		results[1].ToolUseID != "toolu_b" || results[1].IsError == nil || !*results[1].IsError {
		t.Errorf("tool results = %s", req.Messages[2].Content)
	}
}

func TestChatWithoutOfferedToolsCannotCallOne(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { sse(w, textReply("ok")...) })
	h := []message.Message{
		{Role: message.RoleUser, Content: "go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "toolu_a", Name: "list_files", Arguments: `{}`}}},
		{Role: message.RoleTool, ToolCallID: "toolu_a", Content: "a.txt"},
		{Role: message.RoleUser, Content: "thanks"},
	}
	if _, err := newClient(t, f.URL, nil).Chat(context.Background(), provider.Request{Messages: h}, nil); err != nil {
		t.Fatal(err)
	}
	if req := f.last(); req.ToolChoice["type"] != "none" || len(req.Tools) != 1 {
		t.Errorf("tools = %+v, tool_choice = %v", req.Tools, req.ToolChoice)
	}
}

func TestChatRefusesABadToolSchema(t *testing.T) {
	req := userReq("x")
	req.Tools = []provider.Tool{{Name: "bad", Parameters: json.RawMessage(`{"type":"string"}`)}}
	_, err := newClient(t, "http://127.0.0.1:1", nil).Chat(context.Background(), req, nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindBadRequest {
		t.Fatalf("err = %v", err)
	}
}
