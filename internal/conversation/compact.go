package conversation

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/session"
)

// Compact runs the compaction pipeline once on the live history: the last
// compact.DefaultKeep messages stay verbatim, or compact.GuidedKeep with an
// instruction. The result replaces the history, is journalled as a
// "compact" rewrite (so /rewind compact can undo it) and written through.
// On an error (compact.ErrNothingToGain, a cancelled ctx) the history is
// unchanged. progress may be nil.
func (e *Engine) Compact(ctx context.Context, instruction string, progress func(compact.Event)) (compact.Result, error) {
	keep := compact.DefaultKeep
	if strings.TrimSpace(instruction) != "" {
		keep = compact.GuidedKeep
	}
	return e.compact(ctx, compact.Options{Keep: keep, Instruction: strings.TrimSpace(instruction), Provider: e.provider,
		WindowTokens: e.ContextWindow(), Progress: progress, Lang: e.lang})
}

func (e *Engine) compact(ctx context.Context, o compact.Options) (compact.Result, error) {
	if _, err := e.adopt(); err != nil { // compact what is current, never overwrite it
		return compact.Result{}, err
	}
	res, err := compact.Compact(e.retrying(ctx), e.history, o)
	if err != nil {
		return res, err
	}
	res = withRecallKeys(e.history, slices.Clone(e.hashes.Of(e.history)), res)
	if res.SummaryErr != nil {
		e.notifyf("the summary request failed (%v); older messages were truncated instead", res.SummaryErr)
	}
	if err := e.keepBeforeCompaction(res); err != nil {
		return res, err
	}
	return res, e.replace(res.History, journal.ReasonCompact)
}

// keepBeforeCompaction puts the bound session's file in the trash before a
// compaction replaces it when the journal is off (with the journal on, the
// journal keeps every message a compaction removes): no compaction leaves
// the originals nowhere. When the copy cannot be made the compaction does
// not happen.
func (e *Engine) keepBeforeCompaction(res compact.Result) error {
	if e.journalDir != "" || e.bound == "" || len(res.History) == len(e.history) || !e.store.Exists(e.bound) {
		return nil
	}
	entry, err := e.landedEntry(e.store.TrashCopy(e.bound))
	if err != nil {
		return i18n.Errorf("compaction not done: the session as it is could not be kept in the trash first: %w", err)
	}
	e.notifyf("session %q as it was before this compaction is kept in the trash (%s); `chatcli session restore %s` brings it back once this session is renamed or deleted",
		e.bound, entry.File, e.bound)
	return nil
}

// landedEntry is landed for a trash write that returns its entry.
func (e *Engine) landedEntry(entry session.TrashEntry, err error) (session.TrashEntry, error) {
	return entry, e.landed(err)
}

// ContextWindow is the model's context size in tokens: the window a
// refusal taught this engine, else Options.ContextWindow, else the window
// Options.Windows remembers for the provider and model, else
// DefaultContextWindow.
func (e *Engine) ContextWindow() int {
	if e.learned > 0 {
		return e.learned
	}
	if e.contextWindow > 0 {
		return e.contextWindow
	}
	if e.remembered == nil {
		n := e.windows.Learned(e.provider.Name(), e.provider.Model())
		e.remembered = &n
	}
	if *e.remembered > 0 {
		return *e.remembered
	}
	return DefaultContextWindow(e.provider.Model())
}

// learnWindow takes tokens as the model's window for later turns, and for
// later processes when the engine has Options.Windows.
func (e *Engine) learnWindow(tokens int) {
	e.learned = tokens
	if e.windows == nil {
		e.notifyf("the context window of %s is taken as %d tokens from now on (CHATCLI_CONTEXT_WINDOW sets it)", e.provider.Model(), tokens)
		return
	}
	if err := e.windows.Learn(e.provider.Name(), e.provider.Model(), tokens); err != nil {
		e.notifyf("the context window of %s is taken as %d tokens in this process; it could not be remembered: %v", e.provider.Model(), tokens, err)
		return
	}
	e.notifyf("the context window of %s is taken as %d tokens from now on, in later sessions too (CHATCLI_CONTEXT_WINDOW sets it)", e.provider.Model(), tokens)
}

// DefaultContextWindow returns a context size in tokens for common model
// families (as their providers document them), and 8,192 for models it does
// not know (a safe size for local servers).
func DefaultContextWindow(model string) int {
	m := strings.ToLower(model)
	for _, w := range []struct {
		prefix string
		tokens int
	}{
		{"gpt-4.1", 1_000_000}, {"gpt-4o", 128_000}, {"gpt-4-turbo", 128_000}, {"gpt-5", 400_000},
		{"o1", 200_000}, {"o3", 200_000}, {"o4", 200_000}, {"gpt-3.5", 16_385}, {"gpt-4", 8_192},
		{"claude", 200_000}, {"gemini", 1_048_576}, {"offline", 32_000},
	} {
		if strings.HasPrefix(m, w.prefix) {
			return w.tokens
		}
	}
	return 8_192
}

// budgetShare is the part of the context window a request may fill before
// auto-compaction; the rest is left for the reply.
const budgetShare = 0.8

// estimate returns the estimated tokens of history h, corrected by the
// ratio between the usage the provider last reported and the estimate for
// that request.
func (e *Engine) estimate(h []message.Message) int {
	return int(float64(compact.EstimateTokens(h)) * e.tokenRatio())
}

func (e *Engine) tokenRatio() float64 {
	if e.usageRatio <= 0 {
		return 1
	}
	return e.usageRatio
}

// learnUsage records how the provider's reported input tokens compare with
// the estimate for the request that was sent (clamped to 0.25-4).
func (e *Engine) learnUsage(sent []message.Message, u provider.Usage) {
	e.used.InputTokens += u.InputTokens
	e.used.OutputTokens += u.OutputTokens
	est := compact.EstimateTokens(sent)
	if u.InputTokens <= 0 || est <= 0 {
		return
	}
	e.usageRatio = min(max(float64(u.InputTokens)/float64(est), 0.25), 4)
}

// Usage is the sum of the token usage the provider reported for every
// request this engine sent (tokens; zero where it reported none).
func (e *Engine) Usage() provider.Usage { return e.used }

// autoCompact compacts once, announced, when the request for the live
// history would exceed the context budget. It never loops; when nothing can
// be gained it says so and the request goes as it is.
func (e *Engine) autoCompact(ctx context.Context) error {
	budget := int(float64(e.ContextWindow()) * budgetShare)
	tokens := e.estimate(e.history)
	if tokens <= budget {
		return nil
	}
	e.notifyf("the conversation is about %d tokens, over the %d-token budget of %s: compacting before sending",
		tokens, budget, e.provider.Model())
	// The target is in bytes: scale the history's size by how far it is
	// over the budget, so per-message and image costs count. A short kept
	// tail leaves room for the summary, so truncation stays the exception.
	target := int(float64(compact.Size(e.history)) * float64(budget) / float64(tokens))
	_, err := e.compact(ctx, compact.Options{Keep: compact.GuidedKeep, TargetBytes: target, Provider: e.provider,
		WindowTokens: e.ContextWindow(), Progress: func(ev compact.Event) { e.notify(ev.Text) }, Lang: e.lang})
	if errors.Is(err, compact.ErrNothingToGain) {
		e.notifyf("sending the request as it is")
		return nil
	}
	return err
}
