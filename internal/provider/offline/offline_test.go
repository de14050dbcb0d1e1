package offline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

func history(prompts ...string) provider.Request {
	var req provider.Request
	req.Messages = append(req.Messages, message.Message{Role: message.RoleSystem, Content: "sys"})
	for i, p := range prompts {
		req.Messages = append(req.Messages, message.Message{Role: message.RoleUser, Content: p})
		if i < len(prompts)-1 {
			req.Messages = append(req.Messages, message.Message{Role: message.RoleAssistant, Content: "answer"})
		}
	}
	return req
}

func TestReplyIsDeterministicAndLabelled(t *testing.T) {
	c := New("")
	if c.Name() != "offline" || c.Model() != "offline" || New("m").Model() != "m" {
		t.Fatalf("Name/Model = %q/%q", c.Name(), c.Model())
	}
	long := strings.Repeat("ab ", 30) + "\nsecond line"
	req := history("first", long)
	var first, second []string
	r1, err := c.Chat(context.Background(), req, func(s string) { first = append(first, s) })
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Chat(context.Background(), req, func(s string) { second = append(second, s) })
	if err != nil {
		t.Fatal(err)
	}
	want := "[offline] reply #2 to: " + message.Clip(long, 60)
	if r1.Message.Content != want || r1.Message.Role != message.RoleAssistant {
		t.Errorf("reply = %q, want %q", r1.Message.Content, want)
	}
	if strings.Contains(r1.Message.Content, "\n") || !strings.HasSuffix(r1.Message.Content, "…") {
		t.Errorf("prompt not clipped to one line: %q", r1.Message.Content)
	}
	if strings.Join(first, "") != r1.Message.Content || len(first) < 2 || len(first) > chunks {
		t.Errorf("chunks %q do not make up the reply in 2..%d pieces", first, chunks)
	}
	if strings.Join(first, "|") != strings.Join(second, "|") || r1.Message.Content != r2.Message.Content || r1.Usage != r2.Usage {
		t.Errorf("same input, different output: %q vs %q", first, second)
	}
	if r1.Usage.InputTokens != (len("sys")+len("first")+len("answer")+len(long)+3)/4 ||
		r1.Usage.OutputTokens != (len(want)+3)/4 || r1.StopReason != "stop" {
		t.Errorf("usage = %+v, stop = %q", r1.Usage, r1.StopReason)
	}
}

func TestReplyCountsUserMessages(t *testing.T) {
	for n, want := range map[int]string{1: "[offline] reply #1 to: q", 3: "[offline] reply #3 to: q"} {
		prompts := make([]string, n)
		for i := range prompts {
			prompts[i] = "q"
		}
		r, err := New("").Chat(context.Background(), history(prompts...), nil)
		if err != nil || r.Message.Content != want {
			t.Errorf("%d prompts: %q, %v; want %q", n, r.Message.Content, err, want)
		}
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	r, err := New("").Chat(ctx, history("hello there, offline world"), func(s string) {
		got = append(got, s)
		cancel()
	})
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindCanceled || pe.Provider != "offline" {
		t.Fatalf("err = %v, want a cancelled *provider.Error", err)
	}
	if len(got) != 1 || r.Message.Content != "" {
		t.Errorf("deltas after cancel = %q, reply = %+v", got, r)
	}
	_, err = New("").Chat(ctx, history("again"), func(s string) { t.Errorf("delta %q after cancel", s) })
	if !errors.As(err, &pe) || pe.Kind != provider.KindCanceled {
		t.Errorf("already cancelled: err = %v", err)
	}
}

func TestSplitConcatenates(t *testing.T) {
	for _, s := range []string{"", "one", "a b", "[offline] reply #1 to: héllo wörld 👋🏽 and more words here"} {
		parts := split(s, chunks)
		if strings.Join(parts, "") != s || len(parts) > chunks {
			t.Errorf("split(%q) = %q", s, parts)
		}
	}
}
