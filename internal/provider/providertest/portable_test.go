package providertest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// target is one provider under test, started against its strict fake.
type target struct {
	name  string
	start func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server)
}

var targets = []target{
	{"openai", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewOpenAI(t, replies...)
		c, err := openai.New(openai.Config{Model: "gpt-test", BaseURL: s.URL + "/v1", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
	{"anthropic", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewAnthropic(t, replies...)
		c, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: s.URL, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
	{"bedrock", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewBedrock(t, "us-east-1", "AKIDTEST", "secret", "session-token", replies...)
		c, err := anthropic.NewBedrock(anthropic.BedrockConfig{Model: "anthropic.claude-test-v1:0", Region: s.Region, AccessKeyID: s.AccessKeyID,
			SecretAccessKey: s.SecretAccessKey, SessionToken: s.SessionToken, Endpoint: s.URL, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return c, s.Server
	}},
	{"googleai", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewGemini(t, replies...)
		c, err := openai.New(openai.Config{APIKey: "test-key", Model: "gemini-test", BaseURL: s.URL + "/v1beta/openai", MaxRetries: -1, Preset: openai.PresetGemini})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
}

func encoded(t *testing.T, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t *testing.T) []byte {
	return encoded(t, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) })
}

func pngBytes(t *testing.T) []byte {
	return encoded(t, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) })
}

func gifBytes(t *testing.T) []byte {
	return encoded(t, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) })
}

func user(s string, images ...string) message.Message {
	return message.Message{Role: message.RoleUser, Content: s, Images: message.ImageRefs(images...)}
}

func call(text string, ids ...string) message.Message {
	m := message.Message{Role: message.RoleAssistant, Content: text}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, message.ToolCall{ID: id, Type: "function", Name: "list_dir", Arguments: `{"path":"."}`})
	}
	return m
}

func result(id string) message.Message {
	return message.Message{Role: message.RoleTool, ToolCallID: id, Content: "a.go\nb.go"}
}

func reply(s string) message.Message { return message.Message{Role: message.RoleAssistant, Content: s} }

// shapes are stored histories as other tools, other providers and
// chatcli's own repairs leave them; each ends with a user prompt.
func shapes(t *testing.T) map[string][]message.Message {
	dir := t.TempDir()
	jp, pn := jpegBytes(t), pngBytes(t)
	path := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(path, pn, 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 64)
	sig := providertest.Signature("I should list the files.")
	anthropicBlocks, _ := json.Marshal([]map[string]string{{"type": "thinking", "thinking": "I should list the files.", "signature": sig}})
	withReasoning := func(m message.Message, r *message.Reasoning) message.Message {
		m.Meta = &message.Meta{Reasoning: r}
		return m
	}
	return map[string][]message.Message{
		"foreign ids (Kimi)": {user("list"), call("", "functions.list_dir:0", "functions.list_dir:1"),
			result("functions.list_dir:0"), result("functions.list_dir:1"), reply("done"), user("again")},
		"repaired ids": {user("list"), call("", "call~1", "a~2"), result("call~1"), result("a~2"), user("again")},
		"duplicate ids across turns": {user("list"), call("", "call_1"), result("call_1"), reply("ok"),
			user("and again"), call("", "call_1"), result("call_1"), user("thanks")},
		"long ids": {user("list"), call("", long), result(long), user("again")},
		"whitespace text beside a tool call": {user("list"), call("\n\n", "toolu_01"), result("toolu_01"),
			reply("  "), user("again")},
		"image/jpg data URL":  {user("what is this?", "data:image/jpg;base64,"+base64.StdEncoding.EncodeToString(jp))},
		"declared type wrong": {user("what is this?", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(jp))},
		"GIF image":           {user("what is this?", "data:image/gif;base64,"+base64.StdEncoding.EncodeToString(gifBytes(t)))},
		"image file path":     {user("what is this?", path)},
		"image file URL":      {user("what is this?", "file://"+path)},
		"image http URL":      {user("what is this?", "https://example.com/a.png")},
		"reasoning of another provider": {user("list"),
			withReasoning(call("", "call_9"), &message.Reasoning{Source: "openai/deepseek-reasoner", Text: "think"}), result("call_9"),
			withReasoning(reply("ok"), &message.Reasoning{Source: "anthropic/claude-other", Blocks: anthropicBlocks}), user("again")},
		"own reasoning": {user("list"),
			withReasoning(call("", "call_8"), &message.Reasoning{Source: "anthropic/claude-test", Blocks: anthropicBlocks}), result("call_8"),
			withReasoning(reply("ok"), &message.Reasoning{Source: "openai/gpt-test", Text: "think"}), user("again")},
		"tool history then a chat turn": {user("list"), call("", "call_2"), result("call_2"), reply("two files"), user("thanks")},
	}
}

// TestEveryHistoryShapeIsAcceptedEverywhere sends every stored-history
// shape to every provider's strict fake: each is accepted, and the history
// (what the session file holds) is byte-for-byte what it was.
func TestEveryHistoryShapeIsAcceptedEverywhere(t *testing.T) {
	for _, tg := range targets {
		for name, h := range shapes(t) {
			t.Run(tg.name+"/"+name, func(t *testing.T) {
				p, s := tg.start(t, providertest.Reply{Text: "fine"})
				before, _ := json.Marshal(h)
				resp, err := p.Chat(context.Background(), provider.Request{Messages: message.Request(h)}, nil)
				if err != nil {
					t.Fatalf("refused: %v (refusals %q)", err, s.Refusals())
				}
				if resp.Message.Content != "fine" {
					t.Errorf("reply %q", resp.Message.Content)
				}
				if after, _ := json.Marshal(h); !bytes.Equal(before, after) {
					t.Errorf("the stored history changed:\n%s\n%s", before, after)
				}
			})
		}
	}
}

// TestImageThatCannotBeSentNamesTheMessage: a missing file, a text file and
// a data URL that is not an image are refused before any request, naming
// the message.
func TestImageThatCannotBeSentNamesTheMessage(t *testing.T) {
	txt := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(txt, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		for _, ref := range []string{"/nonexistent/shot.png", txt, "data:image/png;base64,aGVsbG8="} {
			p, s := tg.start(t)
			h := []message.Message{user("hi"), reply("hello"), user("look", ref)}
			_, err := p.Chat(context.Background(), provider.Request{Messages: h}, nil)
			var pe *provider.Error
			if !errors.As(err, &pe) || pe.Kind != provider.KindBadRequest || !errors.Is(err, provider.ErrImage) ||
				!strings.Contains(err.Error(), "message #3") {
				t.Errorf("%s %s: %v", tg.name, ref, err)
			}
			if s.Requests() != 0 {
				t.Errorf("%s: a request was sent", tg.name)
			}
			_, _ = p.Chat(context.Background(), provider.Request{Messages: []message.Message{user("hi")}}, nil) // the fake must be hit once
		}
	}
}

// TestReasoningIsReplayedToItsWriter: an agent step whose reply carries
// reasoning (DeepSeek's reasoning_content, Anthropic's signed thinking
// block) is kept in the reply's meta and sent back with the next request
// of the task, which a thinking-mode server requires.
func TestReasoningIsReplayedToItsWriter(t *testing.T) {
	tools := []provider.Tool{{Name: "list_dir", Description: "list a folder"}}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			p, s := tg.start(t,
				providertest.Reply{Reasoning: "I should list the files.", ToolCalls: []message.ToolCall{{ID: "call_1", Name: "list_dir", Arguments: `{"path":"."}`}}},
				providertest.Reply{Text: "two files"})
			s.Thinking = true
			h := []message.Message{user("list the files")}
			resp, err := p.Chat(context.Background(), provider.Request{Messages: h, Tools: tools}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := resp.Message.Meta
			if r == nil || r.Reasoning == nil || r.Reasoning.Source != tg.name+"/"+p.Model() {
				t.Fatalf("reasoning not kept: %+v", r)
			}
			h = append(h, resp.Message, result("call_1"))
			if _, err := p.Chat(context.Background(), provider.Request{Messages: message.Request(h), Tools: tools}, nil); err != nil {
				t.Fatalf("second step refused: %v", err)
			}
			replayed := "I should list the files."
			if tg.name == "googleai" { // Gemini replays the call's signature, not the thought
				replayed = base64.StdEncoding.EncodeToString([]byte(providertest.Signature(replayed)))
			}
			if body := string(s.Body(1)); !strings.Contains(body, replayed) {
				t.Errorf("reasoning not sent back: %s", body)
			}
		})
	}
}

// TestThinkingServerRefusesTheTaskWithoutItsReasoning shows the rule the
// replay satisfies: the same second step without the stored reasoning is
// refused, with DeepSeek's error.
func TestThinkingServerRefusesTheTaskWithoutItsReasoning(t *testing.T) {
	s := providertest.NewOpenAI(t)
	s.Thinking = true
	c, err := openai.New(openai.Config{Model: "deepseek-reasoner", BaseURL: s.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	h := []message.Message{user("list"), call("", "call_1"), result("call_1")}
	_, err = c.Chat(context.Background(), provider.Request{Messages: h}, nil)
	if err == nil || !strings.Contains(err.Error(), "Missing `reasoning_content` field") {
		t.Errorf("err = %v", err)
	}
}
