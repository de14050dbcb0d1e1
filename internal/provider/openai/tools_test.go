package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

var listTool = provider.Tool{Name: "list_files", Description: "List the files of a folder.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}

// TestChatSendsToolDefinitions checks the "tools" array on the wire: one
// function tool per provider.Tool with its schema, and none without tools.
func TestChatSendsToolDefinitions(t *testing.T) {
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("body: %v", err)
		}
		bodies = append(bodies, m)
		sse(w, textChunk("ok"), chunk(`{}`, "stop"), done)
	}))
	defer srv.Close()
	c := newClient(t, srv.URL+"/v1", nil)
	req := userReq("list")
	req.Tools = []provider.Tool{listTool, {Name: "now"}}
	if _, err := c.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), userReq("no tools"), nil); err != nil {
		t.Fatal(err)
	}
	tools, _ := bodies[0]["tools"].([]any)
	if len(tools) != 2 {
		t.Fatalf("tools = %v", bodies[0]["tools"])
	}
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	if tools[0].(map[string]any)["type"] != "function" || fn["name"] != "list_files" || fn["description"] != listTool.Description {
		t.Errorf("tool 0 = %v", tools[0])
	}
	params := fn["parameters"].(map[string]any)
	if req, _ := params["required"].([]any); params["type"] != "object" || len(req) != 1 || req[0] != "path" {
		t.Errorf("parameters = %v", params)
	}
	fn1 := tools[1].(map[string]any)["function"].(map[string]any)
	if p := fn1["parameters"].(map[string]any); p["type"] != "object" {
		t.Errorf("a tool without parameters gets an empty object schema: %v", fn1)
	}
	if _, ok := bodies[1]["tools"]; ok {
		t.Errorf("a request without tools sent %v", bodies[1]["tools"])
	}
}

func TestChatRefusesABadToolSchema(t *testing.T) {
	c := newClient(t, "http://127.0.0.1:1/v1", nil)
	req := userReq("x")
	req.Tools = []provider.Tool{{Name: "bad", Parameters: json.RawMessage(`[1]`)}}
	_, err := c.Chat(context.Background(), req, nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindBadRequest {
		t.Fatalf("err = %v, want a bad-request *provider.Error", err)
	}
}

// TestToolResultsGoUnderTheirCallIDs: after parallel calls, each result is
// a role "tool" message with the tool_call_id it answers, failed or not.
func TestToolResultsGoUnderTheirCallIDs(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("done"), chunk(`{}`, "stop"), done)
	})
	h := message.Request([]message.Message{
		{Role: message.RoleUser, Content: "go"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "call_a", Name: "list_files", Arguments: `{"path":"."}`},
			{ID: "call_b", Name: "list_files", Arguments: `{"path":"/etc"}`}}},
		{Role: message.RoleTool, ToolCallID: "call_a", Content: "a.txt"},
		{Role: message.RoleTool, ToolCallID: "call_b", Content: "error: outside the workspace", Meta: &message.Meta{ToolError: true}},
	})
	if _, err := newClient(t, f.url(), nil).Chat(context.Background(), provider.Request{Messages: h, Tools: []provider.Tool{listTool}}, nil); err != nil {
		t.Fatal(err)
	}
	m := f.last().Messages
	if len(m) != 4 || m[2].ToolCallID != "call_a" || m[2].text() != "a.txt" || m[3].ToolCallID != "call_b" ||
		m[3].text() != "error: outside the workspace" {
		t.Errorf("messages = %+v", m)
	}
}
