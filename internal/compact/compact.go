package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// DefaultKeep is how many messages /compact keeps verbatim at the end.
const DefaultKeep = 10

// GuidedKeep is how many messages /compact <instruction> keeps verbatim.
const GuidedKeep = 4

// DefaultRequestBytes caps the transcript sent for a level-2 summary when
// Options.RequestBytes is 0: about 24,000 tokens by EstimateTokens.
const DefaultRequestBytes = 72 << 10

// summaryMaxTokens caps the length of the summary the provider writes.
const summaryMaxTokens = 2048

// ErrNothingToGain is returned, with the history unchanged, when no level
// could make the history smaller.
var ErrNothingToGain = i18n.Errorf("compact: cannot reduce further")

// ErrSummaryTooLarge is returned, with the history unchanged, when the
// summary was not smaller than the messages it would replace. It matches
// ErrNothingToGain with errors.Is.
var ErrSummaryTooLarge = i18n.Errorf("%w: the summary was not smaller than the messages it replaces", ErrNothingToGain)

// Options configure one compaction.
type Options struct {
	// Keep is how many messages at the end stay verbatim; the start of
	// that tail moves earlier to a tool-group boundary and to the latest
	// user request, never later (see the package doc for a summary left in
	// the tail).
	Keep int
	// Instruction is the guided-compaction instruction; "" for none.
	Instruction string
	// TargetBytes is the Size to reach; 0 means no target: the whole
	// middle is summarised. With a target, trimming that reaches it is the
	// result, and a history already within it that trimming cannot change
	// gives ErrNothingToGain.
	TargetBytes int
	// Provider writes the level-2 summary; nil or one named "offline"
	// means the deterministic summary alone.
	Provider provider.Provider
	// RequestBytes caps the transcript sent to Provider; 0 means
	// DefaultRequestBytes.
	RequestBytes int
	// WindowTokens is the context window of Provider's model, in tokens;
	// 0 means no limit but RequestBytes. Each summary request, with its
	// prompt and reply, is sized to fit it, and a middle too large for one
	// request is summarised in chunks (see llmSummary).
	WindowTokens int
	// Progress receives live progress; may be nil.
	Progress func(Event)
	// Lang is the language of the progress lines; nil is English.
	Lang *i18n.Printer
}

// Event is one step of progress. Phase is "start", "trim", "summarise",
// "summary", "truncate" or "done"; Text is one line for people.
type Event struct{ Phase, Text string }

// Stats measures a history: its message count and its Size in bytes.
type Stats struct{ Messages, Bytes int }

// Result is the outcome of Compact.
type Result struct {
	// History is the compacted history; on error, the input history.
	History []message.Message
	// Level is the highest level applied: 1 trim, 2 summary, 3 truncation;
	// 0 on error.
	Level int
	// Before and After measure the input and History.
	Before, After Stats
	// Covered is the SummaryOf of the one summary or truncation marker in
	// History (the number of earlier messages it stands for), 0 if none.
	Covered int
	// SummaryErr is the provider error that made level 2 fail (level 3
	// then ran instead, when it could drop anything); nil otherwise.
	SummaryErr error
}

// Compact runs the pipeline described in the package doc on h once and
// returns the smaller history. h is never modified. On any error Result.
// History is h itself.
func Compact(ctx context.Context, h []message.Message, o Options) (Result, error) {
	r := &run{ctx: ctx, o: o, before: statsOf(h)}
	unchanged := Result{History: h, Before: r.before, After: r.before, Covered: coveredBy(h)}
	if err := message.Validate(h); err != nil {
		return unchanged, fmt.Errorf("compact: %w", err)
	}
	r.emit("start", r.startText())
	p := makePlan(h, o.Keep)

	cur, ts := trim(h, p)
	res := Result{Before: r.before, Covered: coveredBy(h)}
	if ts.changed() {
		res.Level = 1
		r.emit("trim", r.o.Lang.Sprintf("Trim: %d msgs, %s → %s (%s)", len(h), human(r.before.Bytes), human(Size(cur)), ts))
	}
	if o.TargetBytes > 0 && Size(cur) <= o.TargetBytes {
		return r.finish(h, cur, res, unchanged)
	}

	cut := p.cut
	if middle := summarisable(cur[:cut]); len(middle) > 0 {
		if err := ctx.Err(); err != nil {
			return r.fail(unchanged, i18n.Errorf("compact: cancelled, history unchanged: %w", err))
		}
		next, at, err := r.summarise(cur, cut)
		switch {
		case err == nil:
			cur, cut, res.Level, res.Covered = next, at, 2, coveredBy(next)
			r.emit("summary", r.o.Lang.Sprintf("Summary applied (%d → %d msgs, %s → %s)",
				len(h), len(cur), human(r.before.Bytes), human(Size(cur))))
		case ctx.Err() != nil:
			if !errors.Is(err, ctx.Err()) {
				err = fmt.Errorf("%w: %w", ctx.Err(), err)
			}
			return r.fail(unchanged, i18n.Errorf("compact: summary cancelled: %w", err))
		case errors.Is(err, ErrSummaryTooLarge) && res.Level == 1:
			r.emit("summarise", r.o.Lang.Sprintf("The summary would not be smaller; keeping the trimmed messages"))
			return r.finish(h, cur, res, unchanged)
		case errors.Is(err, ErrSummaryTooLarge):
			return r.fail(unchanged, err)
		case o.TargetBytes == 0:
			// A compaction without a size to reach (/compact) does not
			// truncate because the model failed: the history stays.
			return r.fail(unchanged, i18n.Errorf("compact: the summary request failed, history unchanged: %w", err))
		default:
			res.SummaryErr = err
			r.emit("summarise", r.o.Lang.Sprintf("Summary failed: %s", message.Clip(r.o.Lang.Error(err, nil), 200)))
		}
	}

	if res.Level == 2 && o.TargetBytes > 0 && Size(cur) > o.TargetBytes {
		// Still too large: keep the summary, drop the oldest kept turns.
		if at := lastSummary(cur); at >= 0 {
			if next, ok := fitAfterSummary(cur, at, o.TargetBytes); ok {
				r.emit("truncate", r.o.Lang.Sprintf("Dropped %d kept messages after the summary to fit (%d → %d msgs, %s)",
					len(cur)-len(next), len(h), len(next), human(Size(next))))
				cur, res.Covered, res.Level = next, coveredBy(next), 3
			}
		}
		return r.finish(h, cur, res, unchanged)
	}
	if res.SummaryErr != nil || (o.TargetBytes > 0 && Size(cur) > o.TargetBytes) {
		if next, ok := truncate(cur, cut, o.TargetBytes, res.SummaryErr); ok {
			cur, res.Level, res.Covered = next, 3, coveredBy(next)
			r.emit("truncate", r.o.Lang.Sprintf("Truncated: %d → %d msgs, %s → %s (%d earlier messages removed)",
				len(h), len(cur), human(r.before.Bytes), human(Size(cur)), res.Covered))
		}
	}
	if res.Level == 0 && res.SummaryErr != nil {
		return r.fail(unchanged, i18n.Errorf("compact: summary failed, history unchanged: %w", res.SummaryErr))
	}
	return r.finish(h, cur, res, unchanged)
}

// run is the state of one Compact call.
type run struct {
	ctx    context.Context
	o      Options
	before Stats
}

func (r *run) emit(phase, text string) {
	if r.o.Progress != nil {
		r.o.Progress(Event{Phase: phase, Text: text})
	}
}

func (r *run) startText() string {
	if r.o.TargetBytes > 0 {
		return r.o.Lang.Sprintf("Compacting history (%d msgs, %s → target %s)", r.before.Messages, human(r.before.Bytes), human(r.o.TargetBytes))
	}
	return r.o.Lang.Sprintf("Compacting history (%d msgs, %s)", r.before.Messages, human(r.before.Bytes))
}

// finish checks the invariants of out and returns it as res, or the
// unchanged history with ErrNothingToGain when no level applied.
func (r *run) finish(h, out []message.Message, res Result, unchanged Result) (Result, error) {
	if res.Level == 0 {
		return r.fail(unchanged, ErrNothingToGain)
	}
	if err := message.Validate(out); err != nil {
		return r.fail(unchanged, i18n.Errorf("compact: internal error, history unchanged: %w", err))
	}
	if Size(out) > Size(h) || len(out) > len(h) {
		return r.fail(unchanged, ErrNothingToGain)
	}
	res.History, res.After = out, statsOf(out)
	r.emit("done", r.o.Lang.Sprintf("Compacted (level %d): %d → %d msgs, %s → %s",
		res.Level, res.Before.Messages, res.After.Messages, human(res.Before.Bytes), human(res.After.Bytes)))
	return res, nil
}

func (r *run) fail(unchanged Result, err error) (Result, error) {
	r.emit("done", r.o.Lang.Sprintf("Compaction stopped, history unchanged: %s", message.Clip(strings.TrimPrefix(r.o.Lang.Error(err, nil), "compact: "), 200)))
	return unchanged, err
}
