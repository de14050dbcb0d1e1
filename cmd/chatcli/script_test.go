package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// scriptCall is one tool call a scripted reply makes.
type scriptCall struct {
	ID, Name string
	Args     any // marshalled to the JSON arguments string
}

// scriptReply is one scripted model reply: tool calls, or a final text.
type scriptReply struct {
	Calls []scriptCall
	Text  string
}

// scriptRequest is what the scripted server read from one request.
type scriptRequest struct {
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Messages []struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		ToolCallID string `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	} `json:"messages"`
}

// toolResults maps the tool_call_id of every tool message to its content.
func (r scriptRequest) toolResults() map[string]string {
	out := map[string]string{}
	for _, m := range r.Messages {
		if m.Role == "tool" {
			s, _ := m.Content.(string)
			out[m.ToolCallID] = s
		}
	}
	return out
}

// scriptServer speaks the chat-completions streaming wire format (SSE),
// answering request i with replies[i] (the tool call arguments split over
// two chunks, as servers stream them). Every request is handed to check
// with its index before the reply. A request past the script fails the
// test; so does a script not used up (checked at cleanup).
func scriptServer(t *testing.T, replies []scriptReply, check func(i int, req scriptRequest)) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		var req scriptRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request %d: %v", i, err)
		}
		if i >= len(replies) {
			t.Errorf("request %d past the script of %d replies", i, len(replies))
			http.Error(w, `{"error":{"message":"script over"}}`, 500)
			return
		}
		if check != nil {
			check(i, req)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta any, finish string) {
			choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
			if finish != "" {
				choice["finish_reason"] = finish
			}
			b, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
				"choices": []any{choice}})
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		rep := replies[i]
		for k, c := range rep.Calls {
			args, _ := json.Marshal(c.Args)
			half := len(args) / 2
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": k, "id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": string(args[:half])}}}}, "")
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": k,
				"function": map[string]any{"arguments": string(args[half:])}}}}, "")
		}
		if len(rep.Calls) > 0 {
			chunk(map[string]any{}, "tool_calls")
		} else {
			chunk(map[string]any{"role": "assistant", "content": rep.Text}, "")
			chunk(map[string]any{}, "stop")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if n != len(replies) {
			t.Errorf("the model was asked %d times, the script has %d replies", n, len(replies))
		}
	})
	return srv
}
