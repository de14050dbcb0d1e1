package conversation

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
	ctxwindow "github.com/chatcli/chatcli/internal/window"
)

// longSession runs 12 turns of about 2 KB each through the offline
// provider, then switches e to p: a history the next provider's window
// cannot hold, though the engine believes it can.
func longSession(t *testing.T, e *Engine, p provider.Provider) {
	t.Helper()
	for i := range 12 {
		turn(t, e, strings.Repeat("tell me more about the parser, part "+string(rune('a'+i))+". ", 40))
	}
	e.SetProvider(p)
}

func openaiOn(t *testing.T, s *providertest.Server) provider.Provider {
	t.Helper()
	p, err := openai.New(openai.Config{Model: "m", BaseURL: s.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestContextOverflowIsCompactedAndRetried: for each shape a provider uses
// to say the request exceeds the model's window, the turn compacts once
// (announced) and retries once, and the reply arrives.
func TestContextOverflowIsCompactedAndRetried(t *testing.T) {
	// One reply serves the summary requests (however many chunks) and
	// the retried turn.
	summary := providertest.Reply{Text: "## Current Task State\n- explaining the parser"}
	for _, tt := range []struct {
		name  string
		start func(t *testing.T) provider.Provider
	}{
		{"openai context_length_exceeded", func(t *testing.T) provider.Provider {
			s := providertest.NewOpenAI(t, summary)
			s.MaxPromptBytes = 16 << 10
			return openaiOn(t, s)
		}},
		{"anthropic prompt is too long", func(t *testing.T) provider.Provider {
			s := providertest.NewAnthropic(t, summary)
			s.MaxPromptBytes = 16 << 10
			p, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: s.URL, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"bedrock ValidationException", func(t *testing.T) provider.Provider {
			s := providertest.NewBedrock(t, "us-east-1", "AKIDTEST", "secret", "", summary)
			s.MaxPromptBytes = 16 << 10
			p, err := anthropic.NewBedrock(anthropic.BedrockConfig{Model: "anthropic.claude-test-v1:0", Region: s.Region, AccessKeyID: s.AccessKeyID,
				SecretAccessKey: s.SecretAccessKey, Endpoint: s.URL, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"llama.cpp exceed_context_size_error", func(t *testing.T) provider.Provider {
			return openaiOn(t, providertest.NewOpenAI(t,
				providertest.Reply{Status: 400, ErrType: "exceed_context_size_error", ErrMessage: "the request exceeds the available context size, try increasing it"},
				summary))
		}},
		{"gemini input token count", func(t *testing.T) provider.Provider {
			s := providertest.NewGemini(t, summary)
			s.MaxPromptBytes = 16 << 10
			p, err := openai.New(openai.Config{APIKey: "k", Model: "gemini-test", BaseURL: s.URL + "/v1beta/openai", MaxRetries: -1, Preset: openai.PresetGemini})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			e := f.engine(nil)
			e.contextWindow = 1_000_000
			longSession(t, e, tt.start(t))
			before := len(e.History())
			reply, err := e.Turn(context.Background(), "and the lexer?", nil)
			if err != nil {
				t.Fatalf("turn failed: %v\nnotices %q", err, f.notices)
			}
			if reply.Content != summary.Text {
				t.Errorf("reply %q", reply.Content)
			}
			h := e.History()
			if len(h) >= before || !announced(f.notices, "compacting and retrying once") {
				t.Errorf("not compacted (%d → %d messages), notices %q", before, len(h), f.notices)
			}
			if u := h[len(h)-2]; u.Content != "and the lexer?" || (u.Meta != nil && u.Meta.Unanswered) {
				t.Errorf("the prompt is not kept answered before the reply: %+v", u)
			}
			summarised := false
			for _, m := range h {
				summarised = summarised || (m.Meta != nil && m.Meta.IsSummary && strings.Contains(m.Content, "explaining the parser"))
			}
			if !summarised {
				t.Errorf("no summary of the dropped messages: %+v", h)
			}
			if err := message.Validate(h); err != nil {
				t.Error(err)
			}
			if e.ContextWindow() >= 1_000_000 || !announced(f.notices, "from now on") {
				t.Errorf("the window was not learned: %d", e.ContextWindow())
			}
		})
	}
}

// TestContextOverflowThatPersistsSaysWhatToDo: when the retry fails too, the
// error names /compact and /rewind, there is exactly one retry, and the
// prompt stays, marked unanswered.
func TestContextOverflowThatPersistsSaysWhatToDo(t *testing.T) {
	s := providertest.NewOpenAI(t, providertest.Reply{Text: "## Current Task State\n- x"})
	s.MaxPromptBytes = 1 // every chat request is too long; the summary request too
	f := newFixture(t)
	e := f.engine(nil)
	e.contextWindow = 1_000_000
	longSession(t, e, openaiOn(t, s))
	_, err := e.Turn(context.Background(), "and the lexer?", nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength ||
		!strings.Contains(err.Error(), "/compact") || !strings.Contains(err.Error(), "/rewind") {
		t.Fatalf("err = %v", err)
	}
	if n := s.Requests(); n > 3 {
		t.Errorf("%d requests: more than one compaction and one retry", n)
	}
	h := e.History()
	if last := h[len(h)-1]; last.Content != "and the lexer?" || last.Meta == nil || !last.Meta.Unanswered {
		t.Errorf("last message %+v", last)
	}
}

func announced(notices []string, s string) bool {
	for _, n := range notices {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// TestLaterTurnsCompactBeforeTheLearnedWindow: after one recovery, twelve
// more long turns are compacted before they reach what the provider
// refused: no second refusal.
func TestLaterTurnsCompactBeforeTheLearnedWindow(t *testing.T) {
	s := providertest.NewOpenAI(t, providertest.Reply{Text: "## Current Task State\n- explaining the parser"})
	s.MaxPromptBytes = 16 << 10
	f := newFixture(t)
	e := f.engine(nil)
	e.contextWindow = 1_000_000
	longSession(t, e, openaiOn(t, s))
	for i := range 12 {
		if _, err := e.Turn(context.Background(), strings.Repeat("and the lexer, again? ", 90)+string(rune('a'+i)), nil); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	if r := s.Refusals(); len(r) != 1 {
		t.Errorf("%d refusals: %q", len(r), r)
	}
}

// TestALearnedWindowHoldsInTheNextProcess: the window a refusal taught
// one engine is the next engine's (same store cache, same provider and
// model), so the next long session compacts before the provider refuses
// it; a window set by configuration still wins, and another model starts
// from its own default.
func TestALearnedWindowHoldsInTheNextProcess(t *testing.T) {
	s := providertest.NewOpenAI(t, providertest.Reply{Text: "## Current Task State\n- explaining the parser"})
	s.MaxPromptBytes = 16 << 10
	cache := t.TempDir()
	f := newFixture(t)
	first := f.engine(nil)
	first.windows = ctxwindow.Open(cache)
	first.contextWindow = 1_000_000
	longSession(t, first, openaiOn(t, s))
	turn(t, first, "one more")
	learned := first.ContextWindow()
	if len(s.Refusals()) != 1 || learned >= 1_000_000 {
		t.Fatalf("the first engine: %d refusals, window %d", len(s.Refusals()), learned)
	}

	next := New(Options{Store: f.store, Provider: openaiOn(t, s), Windows: ctxwindow.Open(cache)})
	if got := next.ContextWindow(); got != learned {
		t.Fatalf("the next engine's window is %d, want the learned %d", got, learned)
	}
	for i := range 14 {
		turn(t, next, strings.Repeat("tell me more about the lexer, part "+string(rune('a'+i))+". ", 40))
	}
	if r := s.Refusals(); len(r) != 1 {
		t.Errorf("the next engine was refused too: %d refusals", len(r))
	}
	if got := New(Options{Store: f.store, Provider: openaiOn(t, s), Windows: ctxwindow.Open(cache), ContextWindow: 50_000}).ContextWindow(); got != 50_000 {
		t.Errorf("a configured window gives %d", got)
	}
	other, err := openai.New(openai.Config{Model: "gpt-4o", BaseURL: s.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	next.SetProvider(other)
	if got := next.ContextWindow(); got != DefaultContextWindow("gpt-4o") {
		t.Errorf("another model's window is %d", got)
	}
}
