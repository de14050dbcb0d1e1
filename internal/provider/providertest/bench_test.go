package providertest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
	"github.com/chatcli/chatcli/internal/session"
)

// listTool answers every call with a short listing.
type listTool struct{}

func (listTool) Tools(string) []provider.Tool {
	return []provider.Tool{{Name: "list_dir", Description: "list a folder"}}
}

func (listTool) Run(_ context.Context, _ string, c message.ToolCall) (string, bool) {
	return "a.go\nb.go\n" + strings.Repeat("x", 200), false
}

// agentSession runs turns agent tasks through the conversation engine on
// a server that answers like Kimi (ids "functions.list_dir:N", reused from
// task to task), each task one tool call and a text answer: the history a
// session switched to another provider carries.
func agentSession(b *testing.B, turns int) []message.Message {
	b.Helper()
	var replies []providertest.Reply
	for i := range turns {
		replies = append(replies,
			providertest.Reply{Reasoning: "list it", ToolCalls: []message.ToolCall{{ID: fmt.Sprintf("functions.list_dir:%d", i%3), Name: "list_dir", Arguments: `{"path":"."}`}}},
			providertest.Reply{Text: strings.Repeat("The folder holds two Go files. ", 10)})
	}
	s := providertest.NewOpenAI(b, replies...)
	p, err := openai.New(openai.Config{Model: "kimi-k2", BaseURL: s.URL + "/v1", MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	st, err := session.Open(filepath.Join(b.TempDir(), "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	e := conversation.New(conversation.Options{Store: st, Provider: p, Toolbox: listTool{}, ContextWindow: 10_000_000})
	if err := e.SetMode(conversation.ModeAgent); err != nil {
		b.Fatal(err)
	}
	for i := range turns {
		if _, err := e.Turn(context.Background(), fmt.Sprintf("what is in folder %d?", i), nil); err != nil {
			b.Fatal(err)
		}
	}
	return e.History()
}

// BenchmarkPortableRequest measures one request of a 500-task session
// (about 2,000 messages, every id foreign and reused) switched to
// Anthropic, against the strict fake: normalisation, conversion, the SDK
// and the local round trip, per request.
func BenchmarkPortableRequest(b *testing.B) {
	h := message.Request(agentSession(b, 500))
	s := providertest.NewAnthropic(b, providertest.Reply{Text: "ok"})
	c, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: s.URL, MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Chat(context.Background(), provider.Request{Messages: h}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(h)), "messages")
}

// BenchmarkMapToolCallIDs measures the id mapping alone on the same
// history.
func BenchmarkMapToolCallIDs(b *testing.B) {
	h := message.Request(agentSession(b, 500))
	rule := provider.IDRule{Allowed: func(r rune) bool {
		return r == '_' || r == '-' || r < 128 && (r|32 >= 'a' && r|32 <= 'z' || r >= '0' && r <= '9')
	}}
	b.ReportAllocs()
	for b.Loop() {
		provider.MapToolCallIDs(h, rule)
	}
}
