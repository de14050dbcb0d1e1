package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/provider/openai"
)

// slowServer streams "one two three" in three chunks of the
// chat-completions wire format, after wait and with gap between them.
func slowServer(t *testing.T, wait, gap time.Duration) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // read whole, so that a closed connection cancels r's context
		w.Header().Set("Content-Type", "text/event-stream")
		select { // a cancelled request ends the wait
		case <-time.After(wait):
		case <-r.Context().Done():
			return
		}
		for _, part := range []string{"one ", "two ", "three"} {
			chunk, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
				"choices": []map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": part}}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
			w.(http.Flusher).Flush()
			time.Sleep(gap)
		}
		fin, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": "m",
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", fin)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestChatSendsProgressWhenAskedFor(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 100 * time.Millisecond
	srv := slowServer(t, 450*time.Millisecond, 550*time.Millisecond)
	p, err := openai.New(openai.Config{APIKey: "k", Model: "m", BaseURL: srv.URL + "/v1", Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, setup{provider: p})
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := f.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "progress-client", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
		}}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	params := &mcp.CallToolParams{Name: "chat", Arguments: map[string]any{"prompt": "count"}}
	params.SetProgressToken("turn-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError || text(res) != "one two three" {
		t.Fatalf("chat: %v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	var waiting, receiving bool
	for i, n := range got {
		if n.ProgressToken != "turn-1" || i > 0 && n.Progress <= got[i-1].Progress {
			t.Fatalf("notification %d: %+v (token must be the request's, progress must increase)", i, n)
		}
		waiting = waiting || strings.HasPrefix(n.Message, "waiting for the model")
		receiving = receiving || strings.HasPrefix(n.Message, "receiving the reply")
	}
	if !waiting || !receiving {
		t.Fatalf("want notifications both before and while the reply streams: %+v", got)
	}
	before := len(got)
	mu.Unlock()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "chat", Arguments: map[string]any{"prompt": "again"}}); err != nil || res.IsError {
		t.Fatalf("chat without a token: %v", err)
	}
	mu.Lock()
	if len(got) != before {
		t.Fatalf("a call without a progressToken got %d notifications", len(got)-before)
	}
}

func TestListIsPaged(t *testing.T) {
	f := newFixture(t, setup{noMirror: true})
	for i := range 7 {
		f.manage(map[string]any{"action": "save", "name": fmt.Sprintf("s%d", i), "yes": true})
		f.chat(map[string]any{"prompt": fmt.Sprintf("turn %d", i)})
	}
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		args := map[string]any{"action": "list", "limit": 3}
		if cursor != "" {
			args["cursor"] = cursor
		}
		out := f.manage(args)
		if out.Total != 7 || len(out.Sessions) > 3 || len(out.Sessions) == 0 {
			t.Fatalf("page %d: %+v", pages, out)
		}
		for _, s := range out.Sessions {
			if seen[s.Name] {
				t.Fatalf("%s listed twice", s.Name)
			}
			seen[s.Name] = true
		}
		if out.NextCursor == "" {
			if pages != 2 {
				t.Fatalf("%d pages of 3 for 7 sessions", pages+1)
			}
			break
		}
		if !strings.Contains(out.Text, "cursor "+out.NextCursor+" gives the next page") {
			t.Fatalf("text of a page: %q", out.Text)
		}
		cursor = out.NextCursor
	}
	if len(seen) != 7 {
		t.Fatalf("pages held %d sessions", len(seen))
	}
	f.fails("manage_session", map[string]any{"action": "list", "cursor": "x9"}, `cursor "x9" is not one this server gave`)
	f.fails("manage_session", map[string]any{"action": "list", "limit": 5000}, "limit 5000")
	if out := f.manage(map[string]any{"action": "list"}); len(out.Sessions) != 7 || out.NextCursor != "" {
		t.Fatalf("default page: %+v", out)
	}
}

func TestOutputSchemasUseSingleTypes(t *testing.T) {
	f := newFixture(t, setup{})
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		data, _ := json.Marshal(tool.OutputSchema)
		if strings.Contains(string(data), `"null"`) || !strings.Contains(string(data), `"type":"object"`) {
			t.Errorf("%s output schema: %s", tool.Name, data)
		}
	}
}
