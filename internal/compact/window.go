package compact

import (
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

// ErrWindowTooSmall is returned when Options.WindowTokens leaves no room
// for a summary request: the system prompt and the reply alone fill it.
var ErrWindowTooSmall = i18n.Errorf("compact: the model's context window is too small for a summary request")

// windowShare is the part of the window a summary request may fill with
// its transcript once the prompt and the reply are counted; the rest
// absorbs estimation error.
const windowShare = 0.85

// minChunkBytes is the smallest transcript a summary request is worth.
const minChunkBytes = 2 << 10

// summaryTokens is the reply cap of a summary request for the options: at
// most summaryMaxTokens and a quarter of the window.
func summaryTokens(o Options) int {
	if o.WindowTokens > 0 {
		return max(256, min(summaryMaxTokens, o.WindowTokens/4))
	}
	return summaryMaxTokens
}

// requestBudget is the transcript size, in bytes, one summary request may
// carry: Options.RequestBytes (or DefaultRequestBytes), lowered to what
// fits Options.WindowTokens with the system prompt, the framing and the
// reply (summaryTokens), at BytesPerToken.
func requestBudget(o Options) (int, error) {
	budget := o.RequestBytes
	if budget <= 0 {
		budget = DefaultRequestBytes
	}
	if o.WindowTokens <= 0 {
		return budget, nil
	}
	prompt := (len(systemPrompt)+len(guidedPrompt)+len(o.Instruction)+200)/BytesPerToken + 2*messageTokens
	fit := int(float64(o.WindowTokens-prompt-summaryTokens(o)) * windowShare * BytesPerToken)
	if fit < minChunkBytes {
		return 0, i18n.Errorf("%w (%d tokens)", ErrWindowTooSmall, o.WindowTokens)
	}
	return min(budget, fit), nil
}

// maxSummaryChunks caps the requests one summary takes: a middle that
// needs more at the tightest caps is cut into this many chunks, each
// transcript then keeping its head and tail.
const maxSummaryChunks = 8

// chunks splits middle into runs of whole message groups (a tool call
// stays with its results) whose transcript fits budget, in order, at the
// widest caps that need at most maxSummaryChunks runs; a single group
// larger than budget is a run of its own (the transcript clips it).
func chunks(middle []message.Message, budget int) [][]message.Message {
	var out [][]message.Message
	for _, caps := range transcriptCaps {
		if out = split(middle, func(run []message.Message) bool { return estimate(run, caps) <= budget }); len(out) <= maxSummaryChunks {
			return out
		}
	}
	for size := Size(middle) / maxSummaryChunks; ; size += size/10 + 1 {
		if out = split(middle, func(run []message.Message) bool { return Size(run) <= size }); len(out) <= maxSummaryChunks {
			return out
		}
	}
}

// split cuts middle into runs of whole message groups, each as long as fits
// allows (at least one group).
func split(middle []message.Message, fits func([]message.Message) bool) [][]message.Message {
	var out [][]message.Message
	start := 0
	for start < len(middle) {
		end := nextGroup(middle, start)
		for end < len(middle) {
			next := nextGroup(middle, end)
			if !fits(middle[start:next]) {
				break
			}
			end = next
		}
		out = append(out, middle[start:end])
		start = end
	}
	return out
}

// llmSummary asks the provider for the summary of middle. When the
// middle's transcript fits one request at the widest caps, one request
// carries it; otherwise it is summarised in chunks (chunks), each request
// carrying the summary so far as an earlier summary, so the last reply
// covers everything, and the file and command facts of every chunk are
// merged in. Errors are the provider's.
func (r *run) llmSummary(middle []message.Message) (sections, error) {
	budget, err := requestBudget(r.o)
	if err != nil {
		return sections{}, err
	}
	o := r.o
	o.RequestBytes = budget
	parts := chunks(middle, budget)
	if len(parts) == 1 || estimate(middle, transcriptCaps[len(transcriptCaps)-1]) <= budget {
		resp, err := o.Provider.Chat(r.ctx, buildRequest(middle, o), nil)
		if err != nil {
			return sections{}, err
		}
		return merged(resp.Message.Content, middle), nil
	}
	var sofar *message.Message
	var body sections
	for k, part := range parts {
		r.emit("summarise", r.o.Lang.Sprintf("Summarising part %d of %d (%d messages) via LLM…", k+1, len(parts), len(part)))
		in := part
		if sofar != nil {
			in = append([]message.Message{*sofar}, part...)
			o.RequestBytes = max(budget-len(sofar.Content), budget/4)
		}
		resp, err := o.Provider.Chat(r.ctx, buildRequest(in, o), nil)
		if err != nil {
			return sections{}, err
		}
		body = merged(resp.Message.Content, in)
		n := 0
		for _, m := range in {
			n += covered(m)
		}
		sofar = &message.Message{Role: message.RoleUser, Content: body.render(header(n, "")),
			Meta: &message.Meta{IsSummary: true, SummaryOf: n}}
	}
	return body, nil
}
