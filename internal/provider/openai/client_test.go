package openai

import (
	"context"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/session"
)

func newClient(t *testing.T, baseURL string, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{APIKey: "sk-test", Model: "test-model", BaseURL: baseURL, MaxRetries: -1}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func userReq(text string) provider.Request {
	return provider.Request{Messages: []message.Message{{Role: message.RoleUser, Content: text}}}
}

func TestChatStreamsTextInChunks(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chunk(`{"role":"assistant","content":""}`, ""), textChunk("Hel"), textChunk("lo, "),
			textChunk("wörld 👋"), chunk(`{}`, "stop"), usageChunk(12, 5), done)
	})
	c := newClient(t, f.url(), nil)
	var deltas []string
	resp, err := c.Chat(context.Background(), provider.Request{Messages: []message.Message{
		{Role: message.RoleSystem, Content: "be brief"},
		{Role: message.RoleUser, Content: "hi"},
	}, MaxTokens: 50}, func(s string) { deltas = append(deltas, s) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Hel", "lo, ", "wörld 👋"}; !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas = %q, want %q", deltas, want)
	}
	want := message.Message{Role: message.RoleAssistant, Content: "Hello, wörld 👋"}
	if !reflect.DeepEqual(resp.Message, want) {
		t.Errorf("message = %+v, want %+v", resp.Message, want)
	}
	if resp.Usage != (provider.Usage{InputTokens: 12, OutputTokens: 5}) || resp.StopReason != "stop" {
		t.Errorf("usage = %+v, stop = %q", resp.Usage, resp.StopReason)
	}
	req := f.last()
	if req.Model != "test-model" || !req.Stream || req.StreamOptions == nil || !req.StreamOptions.IncludeUsage {
		t.Errorf("request = %+v, want model, stream and include_usage", req)
	}
	if req.MaxTokens == nil || *req.MaxTokens != 50 || req.MaxCompletionTokens != nil {
		t.Errorf("a compatible server gets max_tokens: %+v %+v", req.MaxTokens, req.MaxCompletionTokens)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[0].text() != "be brief" ||
		req.Messages[1].Role != "user" || req.Messages[1].text() != "hi" {
		t.Errorf("messages = %+v", req.Messages)
	}
	if got := f.header(0).Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestChatJoinsToolCallArgumentsSplitOverChunks(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, chunk(`{"role":"assistant","content":null}`, ""),
			toolChunk(0, "call_1", "read_file", ""),
			toolChunk(0, "", "", `{"pa`), toolChunk(0, "", "", `th":"/tmp/`), toolChunk(0, "", "", `a.txt"}`),
			chunk(`{}`, "tool_calls"), usageChunk(20, 9), done)
	})
	var deltas int
	resp, err := newClient(t, f.url(), nil).Chat(context.Background(), userReq("read it"), func(string) { deltas++ })
	if err != nil {
		t.Fatal(err)
	}
	want := []message.ToolCall{{ID: "call_1", Type: "function", Name: "read_file", Arguments: `{"path":"/tmp/a.txt"}`}}
	if !reflect.DeepEqual(resp.Message.ToolCalls, want) || resp.Message.Content != "" {
		t.Errorf("message = %+v, want tool calls %+v", resp.Message, want)
	}
	if deltas != 0 || resp.StopReason != "tool_calls" || resp.Usage.OutputTokens != 9 {
		t.Errorf("deltas = %d, stop = %q, usage = %+v", deltas, resp.StopReason, resp.Usage)
	}
}

func TestChatAccumulatesParallelToolCalls(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("Checking both."),
			toolChunk(0, "call_a", "get_weather", `{"city":`),
			toolChunk(1, "call_b", "get_time", `{"tz":`),
			toolChunk(0, "", "", `"Paris"}`),
			toolChunk(1, "", "", `"UTC"}`),
			chunk(`{}`, "tool_calls"), done)
	})
	resp, err := newClient(t, f.url(), nil).Chat(context.Background(), userReq("weather and time"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := message.Message{Role: message.RoleAssistant, Content: "Checking both.", ToolCalls: []message.ToolCall{
		{ID: "call_a", Type: "function", Name: "get_weather", Arguments: `{"city":"Paris"}`},
		{ID: "call_b", Type: "function", Name: "get_time", Arguments: `{"tz":"UTC"}`},
	}}
	if !reflect.DeepEqual(resp.Message, want) {
		t.Errorf("message = %+v\nwant %+v", resp.Message, want)
	}
	if resp.Usage != (provider.Usage{}) {
		t.Errorf("usage = %+v, want zero when the server reports none", resp.Usage)
	}
}

// toolHistory is a conversation with two parallel tool calls and their
// results, as the engine keeps it.
func toolHistory() []message.Message {
	return []message.Message{
		{Role: message.RoleSystem, Content: "sys"},
		{Role: message.RoleUser, Content: "weather and time?"},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{
			{ID: "call_a", Type: "function", Name: "get_weather", Arguments: `{"city":"Paris"}`},
			{ID: "call_b", Type: "function", Name: "get_time", Arguments: `{}`},
		}},
		{Role: message.RoleTool, ToolCallID: "call_a", Content: "sunny"},
		{Role: message.RoleTool, ToolCallID: "call_b", Content: "noon"},
		{Role: message.RoleAssistant, Content: "Sunny, noon."},
		{Role: message.RoleUser, Content: "thanks"},
	}
}

func TestRequestCarriesToolCallsAndResults(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("ok"), chunk(`{}`, "stop"), done)
	})
	if _, err := newClient(t, f.url(), nil).Chat(context.Background(), provider.Request{Messages: toolHistory()}, nil); err != nil {
		t.Fatal(err)
	}
	msgs := f.last().Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if want := []string{"system", "user", "assistant", "tool", "tool", "assistant", "user"}; !reflect.DeepEqual(roles, want) {
		t.Fatalf("roles = %v, want %v", roles, want)
	}
	a := msgs[2]
	if len(a.ToolCalls) != 2 || a.ToolCalls[0].ID != "call_a" || a.ToolCalls[0].Type != "function" ||
		a.ToolCalls[0].Function.Name != "get_weather" || a.ToolCalls[0].Function.Arguments != `{"city":"Paris"}` ||
		a.ToolCalls[1].ID != "call_b" {
		t.Errorf("assistant tool_calls = %+v", a.ToolCalls)
	}
	if a.Content != nil {
		t.Errorf("assistant with tool calls and no text should omit content, got %s", a.Content)
	}
	if msgs[3].ToolCallID != "call_a" || msgs[3].text() != "sunny" || msgs[4].ToolCallID != "call_b" {
		t.Errorf("tool messages = %+v %+v", msgs[3], msgs[4])
	}
}

func TestStrictServerRejectsUnansweredToolCallAndAcceptsRepairedHistory(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("ok"), chunk(`{}`, "stop"), done)
	})
	c := newClient(t, f.url(), nil)
	broken := toolHistory()
	broken = append(broken[:4], broken[5:]...) // drop the result of call_b
	_, err := c.Chat(context.Background(), provider.Request{Messages: broken}, nil)
	pe := asProviderError(t, err)
	if pe.Kind != provider.KindBadRequest || pe.Status != 400 || !strings.Contains(pe.Detail, "call_b") {
		t.Errorf("error = %+v (%v), want a 400 naming call_b", pe, err)
	}
	repaired, fixes := message.Repair(broken)
	if len(fixes) != 1 {
		t.Fatalf("fixes = %v", fixes)
	}
	resp, err := c.Chat(context.Background(), provider.Request{Messages: message.Request(repaired)}, nil)
	if err != nil || resp.Message.Content != "ok" {
		t.Fatalf("repaired history: %v, %+v", err, resp)
	}
	if n := f.hits(); n != 2 {
		t.Errorf("hits = %d, want 2", n)
	}
}

func TestEmptyAPIKeyWorksAgainstLocalServer(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("local"), chunk(`{}`, "stop"), done)
	})
	c := newClient(t, f.url()+"/", func(cfg *Config) { cfg.APIKey = "" })
	resp, err := c.Chat(context.Background(), userReq("hi"), nil)
	if err != nil || resp.Message.Content != "local" {
		t.Fatalf("Chat = %+v, %v", resp, err)
	}
	if got := f.header(0).Get("Authorization"); got != "" {
		t.Errorf("Authorization = %q, want none without a key", got)
	}
}

func TestOfficialAPIGetsMaxCompletionTokens(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("ok"), chunk(`{}`, "stop"), done)
	})
	// Send requests for api.openai.com to the fake server.
	redirect := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r.URL.Scheme, r.URL.Host = "http", strings.TrimPrefix(f.URL, "http://")
		return http.DefaultTransport.RoundTrip(r)
	})}
	c := newClient(t, "", func(cfg *Config) { cfg.HTTPClient = redirect })
	req := userReq("hi")
	req.MaxTokens = 64
	if _, err := c.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	got := f.last()
	if got.MaxCompletionTokens == nil || *got.MaxCompletionTokens != 64 || got.MaxTokens != nil {
		t.Errorf("max_completion_tokens = %v, max_tokens = %v", got.MaxCompletionTokens, got.MaxTokens)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestBaseURLFromEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.openai.com/v1/chat/completions":      "https://api.openai.com/v1",
		"http://127.0.0.1:11434/v1/chat/completions/":     "http://127.0.0.1:11434/v1",
		"http://127.0.0.1:11434/v1":                       "http://127.0.0.1:11434/v1",
		"http://127.0.0.1:11434/v1/":                      "http://127.0.0.1:11434/v1",
		" https://openrouter.ai/api/v1/chat/completions ": "https://openrouter.ai/api/v1",
	} {
		if got := BaseURLFromEndpoint(in); got != want {
			t.Errorf("BaseURLFromEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{{}, {Model: "m", BaseURL: "127.0.0.1:11434/v1"}, {Model: "m", BaseURL: "ftp://x/v1"}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	c, err := New(Config{Model: "m"})
	if err != nil || c.Name() != "openai" || c.Model() != "m" {
		t.Errorf("New = %v, %v", c, err)
	}
}

// A ChatCLI /coder session whose model used native tools (arguments stored
// as JSON objects) continues here: the calls go out with their arguments as
// the strings the wire format wants, and the results after them.
func TestChatCLICoderSessionContinues(t *testing.T) {
	data, err := os.ReadFile("../../session/testdata/chatcli-1.188.0/coder-native.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("ok"), chunk(`{}`, "stop"), done)
	})
	h := append(s.History, message.Message{Role: message.RoleUser, Content: "and now?"})
	if _, err := newClient(t, f.url(), nil).Chat(context.Background(), provider.Request{Messages: h}, nil); err != nil {
		t.Fatal(err)
	}
	msgs := f.last().Messages
	a := msgs[2]
	if len(a.ToolCalls) != 2 || a.ToolCalls[0].Function.Arguments != `{"file":"hello.txt"}` || a.ToolCalls[1].Function.Arguments != `{"dir":"."}` {
		t.Fatalf("assistant tool_calls = %+v", a.ToolCalls)
	}
	if msgs[3].Role != "tool" || msgs[3].ToolCallID != "call_fake_1" || msgs[4].ToolCallID != "call_fake_2" {
		t.Fatalf("tool results = %+v %+v", msgs[3], msgs[4])
	}
}
