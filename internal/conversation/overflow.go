package conversation

import (
	"context"
	"errors"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// overflowShare is the part of its size the history is compacted to after
// the provider said it does not fit the model's window: the estimate that
// let it through was wrong by an unknown amount, so the cut is deep.
const overflowShare = 0.5

// learnedShare is the part of the refused request's estimated tokens taken
// as the model's window for the rest of the conversation, when the error
// does not state the window.
const learnedShare = 0.9

// chat sends the live history, with tools (none in chat mode), and returns
// what was sent and the reply. When the provider answers that the request
// is longer than the model's context window (provider.KindContextLength,
// whatever the provider's words), the history is compacted once, announced,
// and the request is sent once more:
//
//   - the compaction cuts to half the history's size, or to the budget of
//     the window the error states (provider.ContextLimit) when that is
//     smaller; its summary requests are sized to that window, or to half
//     of what was sent when the error states none;
//   - later turns take that window (or 90% of what was refused) as the
//     model's, announced, so they compact before they reach it;
//   - a second failure is returned as it is: its message says what to do
//     (/compact, a smaller CHATCLI_CONTEXT_WINDOW, /rewind);
//   - a compaction that fails is returned joined with the provider's
//     error, the history unchanged.
func (e *Engine) chat(ctx context.Context, tools []provider.Tool, onDelta func(string)) ([]message.Message, provider.Response, error) {
	ctx = e.retrying(ctx)
	sent := e.withSupplement(e.requests.of(e.history))
	resp, err := e.provider.Chat(ctx, provider.Request{Messages: sent, Tools: tools}, onDelta)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength {
		return sent, resp, err
	}
	e.notifyf("%s: the conversation does not fit the context window of %s; compacting and retrying once",
		e.provider.Name(), e.provider.Model())
	// The window is below what was just sent, whatever ContextWindow says:
	// the summary requests are sized to the reduced size too.
	sentTokens := max(e.estimate(e.history), 1)
	share := overflowShare
	window, learned := provider.ContextLimit(pe.Detail), provider.ContextLimit(pe.Detail)
	if window > 0 { // far over a stated window: cut to the budget of it
		share = min(share, budgetShare*float64(window)/float64(sentTokens))
	} else { // the error does not say: the window is below what was sent
		window, learned = int(float64(sentTokens)*overflowShare), int(float64(sentTokens)*learnedShare)
	}
	target := int(float64(compact.Size(e.history)) * share)
	window = min(e.ContextWindow(), window)
	if learned < e.ContextWindow() {
		// Later turns compact before reaching what the provider refused.
		e.learnWindow(learned)
	}
	if _, cerr := e.compact(ctx, compact.Options{Keep: compact.GuidedKeep, TargetBytes: target, Provider: e.provider,
		WindowTokens: window, Progress: func(ev compact.Event) { e.notify(ev.Text) }, Lang: e.lang}); cerr != nil {
		return sent, resp, errors.Join(err, i18n.Errorf("the compaction after it failed: %w", cerr))
	}
	sent = e.withSupplement(e.requests.of(e.history))
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
