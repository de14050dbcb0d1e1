package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

func newClient(t *testing.T, baseURL string, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{APIKey: "sk-ant-test", Model: "claude-test", BaseURL: baseURL, MaxRetries: -1}
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

func TestChatStreamsTextDeltas(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, messageStart(25), textStart(0), ping, textDelta(0, "Hel"), textDelta(0, "lo, "),
			ping, textDelta(0, "wörld 👋"), blockStop(0), messageDelta("end_turn", 7), messageStop)
	})
	var deltas []string
	resp, err := newClient(t, f.URL, nil).Chat(context.Background(), provider.Request{Messages: []message.Message{
		{Role: message.RoleSystem, Content: "be brief"},
		{Role: message.RoleUser, Content: "hi"},
		{Role: message.RoleAssistant, Content: "hello"},
		{Role: message.RoleSystem, Content: "now answer in French"},
		{Role: message.RoleUser, Content: "again"},
	}}, func(s string) { deltas = append(deltas, s) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Hel", "lo, ", "wörld 👋"}; !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas = %q, want %q", deltas, want)
	}
	want := provider.Response{
		Message:    message.Message{Role: message.RoleAssistant, Content: "Hello, wörld 👋"},
		Usage:      provider.Usage{InputTokens: 25, OutputTokens: 7},
		StopReason: "end_turn",
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("resp = %+v\nwant %+v", resp, want)
	}
	req := f.last()
	if req.Model != "claude-test" || !req.Stream || req.MaxTokens != DefaultMaxTokens {
		t.Errorf("request = %+v", req)
	}
	if got := req.systemText(); got != "be brief\n\nnow answer in French" {
		t.Errorf("system = %q, want both system messages joined in order", got)
	}
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if !reflect.DeepEqual(roles, []string{"user", "assistant", "user"}) {
		t.Errorf("roles = %v", roles)
	}
	h := f.header(0)
	if h.Get("Authorization") != "Bearer sk-ant-test" || h.Get("Anthropic-Version") == "" {
		t.Errorf("headers = %v", h)
	}
}

func TestChatJoinsToolInputFragments(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, messageStart(40), textStart(0), textDelta(0, "Let me check."), blockStop(0),
			toolStart(1, "toolu_a", "get_weather"), jsonDelta(1, ""), jsonDelta(1, `{"ci`), jsonDelta(1, `ty": "Par`),
			jsonDelta(1, `is"}`), blockStop(1),
			toolStart(2, "toolu_b", "get_time"), blockStop(2),
			messageDelta("tool_use", 30), messageStop)
	})
	var deltas []string
	resp, err := newClient(t, f.URL, nil).Chat(context.Background(), userReq("weather and time"), func(s string) { deltas = append(deltas, s) })
	if err != nil {
		t.Fatal(err)
	}
	want := message.Message{Role: message.RoleAssistant, Content: "Let me check.", ToolCalls: []message.ToolCall{
		{ID: "toolu_a", Type: "function", Name: "get_weather", Arguments: `{"city": "Paris"}`},
		{ID: "toolu_b", Type: "function", Name: "get_time", Arguments: `{}`},
	}}
	if !reflect.DeepEqual(resp.Message, want) {
		t.Errorf("message = %+v\nwant %+v", resp.Message, want)
	}
	if !reflect.DeepEqual(deltas, []string{"Let me check."}) || resp.StopReason != "tool_use" || resp.Usage.OutputTokens != 30 {
		t.Errorf("deltas = %q, stop = %q, usage = %+v", deltas, resp.StopReason, resp.Usage)
	}
}

// toolHistory has two parallel tool calls answered by two tool messages,
// then a user message: the results and the text share one user turn.
func toolHistory() []message.Message {
	return []message.Message{
		{Role: message.RoleSystem, Content: "sys"},
		{Role: message.RoleUser, Content: "weather and time?"},
		{Role: message.RoleAssistant, Content: "Checking.", ToolCalls: []message.ToolCall{
			{ID: "toolu_a", Type: "function", Name: "get_weather", Arguments: `{"city":"Paris"}`},
			{ID: "toolu_b", Type: "function", Name: "get_time", Arguments: ``},
		}},
		{Role: message.RoleTool, ToolCallID: "toolu_a", Content: "sunny"},
		{Role: message.RoleTool, ToolCallID: "toolu_b", Content: "noon"},
		{Role: message.RoleUser, Content: "and tomorrow?"},
	}
}

func TestRequestCarriesToolUseAndMergedToolResults(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { sse(w, textReply("ok")...) })
	if _, err := newClient(t, f.URL, nil).Chat(context.Background(), provider.Request{Messages: toolHistory()}, nil); err != nil {
		t.Fatal(err)
	}
	req := f.last()
	if len(req.Messages) != 3 {
		t.Fatalf("messages = %d, want user, assistant, user", len(req.Messages))
	}
	a := req.Messages[1].blocks()
	if len(a) != 3 || a[0].Type != "text" || a[1].Type != "tool_use" || a[1].ID != "toolu_a" || a[1].Name != "get_weather" ||
		string(a[1].Input) != `{"city":"Paris"}` || a[2].ID != "toolu_b" || string(a[2].Input) != `{}` {
		t.Errorf("assistant blocks = %+v", a)
	}
	u := req.Messages[2].blocks()
	if len(u) != 3 || u[0].Type != "tool_result" || u[0].ToolUseID != "toolu_a" || len(u[0].Content) != 1 ||
		*u[0].Content[0].Text != "sunny" || u[1].ToolUseID != "toolu_b" || u[2].Type != "text" || *u[2].Text != "and tomorrow?" {
		t.Errorf("user blocks = %+v", u)
	}
	var names []string
	for _, tool := range req.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema["type"] != "object" {
			t.Errorf("tool %s schema = %v", tool.Name, tool.InputSchema)
		}
	}
	if !reflect.DeepEqual(names, []string{"get_weather", "get_time"}) || req.ToolChoice["type"] != "none" {
		t.Errorf("tools = %v, tool_choice = %v", names, req.ToolChoice)
	}
}

func TestStrictServerRejectsUnansweredToolUseAndAcceptsRepairedHistory(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { sse(w, textReply("ok")...) })
	c := newClient(t, f.URL, nil)
	broken := toolHistory()
	broken = append(broken[:4], broken[5:]...) // drop the result of toolu_b
	_, err := c.Chat(context.Background(), provider.Request{Messages: broken}, nil)
	pe := asProviderError(t, err)
	if pe.Kind != provider.KindBadRequest || pe.Status != 400 || !strings.Contains(pe.Detail, "toolu_b") {
		t.Errorf("error = %+v (%v), want a 400 naming toolu_b", pe, err)
	}
	repaired, fixes := message.Repair(broken)
	if len(fixes) != 1 {
		t.Fatalf("fixes = %v", fixes)
	}
	resp, err := c.Chat(context.Background(), provider.Request{Messages: message.Request(repaired)}, nil)
	if err != nil || resp.Message.Content != "ok" {
		t.Fatalf("repaired history: %v, %+v", err, resp)
	}
}

func TestRequestMaxTokensAndNoKey(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { sse(w, textReply("ok")...) })
	c := newClient(t, f.URL+"/v1/", func(cfg *Config) { cfg.APIKey, cfg.MaxTokens = "", 100 })
	if _, err := c.Chat(context.Background(), userReq("hi"), nil); err != nil {
		t.Fatal(err)
	}
	req := userReq("hi")
	req.MaxTokens = 7
	if _, err := c.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if f.request(0).MaxTokens != 100 || f.request(1).MaxTokens != 7 {
		t.Errorf("max_tokens = %d, %d; want the config's, then the request's", f.request(0).MaxTokens, f.request(1).MaxTokens)
	}
	if h := f.header(0); h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" {
		t.Errorf("credentials sent with no key configured: %v", h)
	}
}

func TestBaseURLFromEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.anthropic.com":               "https://api.anthropic.com",
		"https://api.anthropic.com/":              "https://api.anthropic.com",
		"https://api.anthropic.com/v1":            "https://api.anthropic.com",
		"https://api.anthropic.com/v1/messages":   "https://api.anthropic.com",
		"http://127.0.0.1:8080/proxy/v1/messages": "http://127.0.0.1:8080/proxy",
	} {
		if got := BaseURLFromEndpoint(in); got != want {
			t.Errorf("BaseURLFromEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{{}, {Model: "m", BaseURL: "api.anthropic.com"}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	c, err := New(Config{Model: "m"})
	if err != nil || c.Name() != "anthropic" || c.Model() != "m" {
		t.Errorf("New = %v, %v", c, err)
	}
}

func TestFormatImagesAndArguments(t *testing.T) {
	p, err := toParams("m", "anthropic/m", 10, []message.Message{
		{Role: message.RoleUser, Content: "look", Images: message.ImageRefs("data:image/png;base64,iVBORw0KGgo=", "https://example.com/a.jpg")},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{{ID: "t1", Name: "f", Arguments: "not json"}}},
		{Role: message.RoleTool, ToolCallID: "t1"},
		{Role: message.RoleUser, Content: ""},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	var req wireRequest
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	if msg := providertest.CheckAnthropic(b); msg != "" {
		t.Errorf("strict server would refuse: %s\n%s", msg, b)
	}
	u := req.Messages[0].blocks()
	if len(u) != 3 || u[1].Source["type"] != "base64" || u[1].Source["media_type"] != "image/png" ||
		u[1].Source["data"] != "iVBORw0KGgo=" || u[2].Source["url"] != "https://example.com/a.jpg" {
		t.Errorf("user blocks = %s", req.Messages[0].Content)
	}
	if in := string(req.Messages[1].blocks()[0].Input); in != `{"arguments":"not json"}` {
		t.Errorf("input = %s", in)
	}
	if len(req.Messages) != 3 || len(req.Messages[2].blocks()) != 1 {
		t.Errorf("the empty user message should be dropped and the result kept: %s", b)
	}
	if _, err := toParams("m", "anthropic/m", 10, []message.Message{{Role: "robot"}}, nil); err == nil {
		t.Error("unknown role accepted")
	}
}
