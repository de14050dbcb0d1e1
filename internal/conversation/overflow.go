package conversation

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// overflowShare is the part of its size the history is compacted to after
// the provider said it does not fit the model's window: the estimate that
// let it through was wrong by an unknown amount, so the cut is deep.
const overflowShare = 0.5

// chat sends the live history, with tools (none in chat mode), and returns
// what was sent and the reply. When the provider answers that the request
// is longer than the model's context window (provider.KindContextLength,
// whatever the provider's words), the history is compacted once, announced,
// to half its size (its summary requests sized to half the window the
// failed request filled), and the request is sent once more; a second failure is
// returned as it is (its message says what to do: /compact, a smaller
// CHATCLI_CONTEXT_WINDOW, /rewind). A compaction that fails is returned
// joined with the provider's error, the history unchanged.
func (e *Engine) chat(ctx context.Context, tools []provider.Tool, onDelta func(string)) ([]message.Message, provider.Response, error) {
	sent := e.requests.of(e.history)
	resp, err := e.provider.Chat(ctx, provider.Request{Messages: sent, Tools: tools}, onDelta)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength {
		return sent, resp, err
	}
	e.notify(fmt.Sprintf("%s: the conversation does not fit the context window of %s; compacting and retrying once",
		e.provider.Name(), e.provider.Model()))
	// The window is below what was just sent, whatever ContextWindow says:
	// the summary requests are sized to the reduced size too.
	target := int(float64(compact.Size(e.history)) * overflowShare)
	window := min(e.ContextWindow(), int(float64(e.estimate(e.history))*overflowShare))
	if _, cerr := e.compact(ctx, compact.Options{Keep: compact.GuidedKeep, TargetBytes: target, Provider: e.provider,
		WindowTokens: window, Progress: func(ev compact.Event) { e.notify(ev.Text) }}); cerr != nil {
		return sent, resp, errors.Join(err, fmt.Errorf("the compaction after it failed: %w", cerr))
	}
	sent = e.requests.of(e.history)
	resp, err = e.provider.Chat(ctx, provider.Request{Messages: sent, Tools: tools}, onDelta)
	return sent, resp, err
}

// replyMeta is the meta of a reply: the mode, and the provider's reasoning
// the reply came with (from), kept for replay.
func (e *Engine) replyMeta(from *message.Meta) *message.Meta {
	m := e.modeMeta()
	if from != nil {
		m.Reasoning = from.Reasoning
	}
	return m
}

// latestUser is the index of the last user message of h, -1 when none.
func latestUser(h []message.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == message.RoleUser {
			return i
		}
	}
	return -1
}
