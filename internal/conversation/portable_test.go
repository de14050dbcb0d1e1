package conversation

import (
	"context"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

func listCall(id string) []message.ToolCall {
	return []message.ToolCall{{ID: id, Name: "list_files", Arguments: `{"path":"."}`}}
}

// TestAgentTaskKeepsReasoningAndSwitchesProviders: an agent task on a
// thinking-mode server (DeepSeek's rule: the tool-call messages of a turn
// carry their reasoning_content back) succeeds, the reasoning is saved in
// the session, and the same session, with its foreign tool-call ids,
// continues on Anthropic, on Gemini and back on the OpenAI-compatible
// server.
func TestAgentTaskKeepsReasoningAndSwitchesProviders(t *testing.T) {
	f := newFixture(t)
	deepseek := providertest.NewOpenAI(t,
		providertest.Reply{Reasoning: "List the folder first.", ToolCalls: listCall("functions.list_files:0")},
		providertest.Reply{Text: "a.txt and b.go"})
	deepseek.Thinking = true
	ds, err := openai.New(openai.Config{Model: "deepseek-reasoner", BaseURL: deepseek.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := f.agent(t, ds, &dirToolbox{root: workspace(t)}, 0)
	if err := e.SetMode(ModeAgent); err != nil {
		t.Fatal(err)
	}
	if err := e.Save("job", false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Turn(context.Background(), "what is in the folder?", nil); err != nil {
		t.Fatalf("agent turn: %v (refusals %q)", err, deepseek.Refusals())
	}
	if _, err := e.Close(false); err != nil {
		t.Fatal(err)
	}
	stored := reloaded(t, f.store, "job")
	var withReasoning *message.Message
	for i := range stored {
		if m := &stored[i]; len(m.ToolCalls) > 0 && m.Meta != nil && m.Meta.Reasoning != nil {
			withReasoning = m
		}
	}
	if withReasoning == nil || withReasoning.Meta.Reasoning.Text != "List the folder first." ||
		withReasoning.ToolCalls[0].ID != "functions.list_files:0" {
		t.Fatalf("stored history lost the reasoning or the original id: %+v", stored)
	}

	claude := providertest.NewAnthropic(t, providertest.Reply{Text: "Still a.txt and b.go."})
	cl, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: claude.URL, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	gem := providertest.NewGemini(t, providertest.Reply{Text: "Gemini sees a.txt and b.go."})
	gm, err := openai.New(openai.Config{APIKey: "k", Model: "gemini-test", BaseURL: gem.URL + "/v1beta/openai", MaxRetries: -1, Preset: openai.PresetGemini})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []provider.Provider{cl, gm, ds} {
		if _, err := e.Load("job"); err != nil {
			t.Fatal(err)
		}
		e.SetProvider(p)
		if err := e.SetMode(ModeChat); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Turn(context.Background(), "and now, "+p.Name()+"?", nil); err != nil {
			t.Fatalf("%s: %v (refusals %q %q %q)", p.Name(), err, claude.Refusals(), gem.Refusals(), deepseek.Refusals())
		}
		if _, err := e.Close(false); err != nil {
			t.Fatal(err)
		}
	}
	if body := string(claude.Body(0)); strings.Contains(body, "List the folder first.") || strings.Contains(body, "functions.list_files:0") {
		t.Errorf("Anthropic got DeepSeek's reasoning or a foreign id: %s", body)
	}
	after := reloaded(t, f.store, "job")
	ids := 0
	for _, m := range after {
		for _, c := range m.ToolCalls {
			if c.ID != "functions.list_files:0" {
				t.Errorf("a stored id changed: %q", c.ID)
			}
			ids++
		}
	}
	if ids != 1 || len(after) < len(stored)+6 || after[len(after)-1].Content != "a.txt and b.go" {
		t.Errorf("%d calls, %d messages after two more turns on %d", ids, len(after), len(stored))
	}
}
