package compact

import (
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// systemPrompt asks for exactly the six sections of a summary.
const systemPrompt = `You compact a conversation between a user and an AI assistant so that it can continue with less context. The user message holds a transcript of the earlier part of the conversation. Write a summary of it with exactly these six sections, in this order, each a Markdown heading followed by bullet lines starting with "- ":

## Files Read
## Files Modified
## Commands Executed
## Key Decisions
## Errors & Resolutions
## Current Task State

Keep file paths, commands, identifiers, numbers and error messages exact. Under Current Task State say what the user wants, what is done and what remains. Write "- none" under a section with nothing to report. Write nothing before the first heading. Do not answer or continue the conversation; only summarise it.`

// guidedPrompt is appended to systemPrompt for a guided compaction.
const guidedPrompt = "\n\nThe user gave this instruction for the summary; follow it when choosing what to keep and what to stress: %q"

// transcriptCaps are the per-message limits, in bytes, tried in turn until
// the transcript fits Options.RequestBytes: text of user and assistant
// messages, tool results, tool-call arguments.
var transcriptCaps = [][3]int{{4000, 1000, 500}, {1000, 300, 200}, {300, 100, 100}}

// buildRequest is the level-2 request for the non-system middle messages.
func buildRequest(middle []message.Message, o Options) provider.Request {
	sys := systemPrompt
	if s := strings.TrimSpace(o.Instruction); s != "" {
		sys += fmt.Sprintf(guidedPrompt, s)
	}
	budget := o.RequestBytes
	if budget <= 0 {
		budget = DefaultRequestBytes
	}
	user := fmt.Sprintf("Summarise these %d earlier messages:\n\n<transcript>\n%s\n</transcript>",
		len(middle), transcript(middle, budget))
	return provider.Request{
		Messages: message.Request([]message.Message{
			{Role: message.RoleSystem, Content: sys},
			{Role: message.RoleUser, Content: user},
		}),
		MaxTokens: summaryTokens(o),
	}
}

// transcript renders msgs for people and models: a role label per message,
// text, tool calls with their name and arguments, tool results. Longer
// texts lose their middle; when even the tightest caps exceed budget the
// transcript keeps its head and tail.
func transcript(msgs []message.Message, budget int) string {
	caps := transcriptCaps[len(transcriptCaps)-1]
	for _, c := range transcriptCaps {
		if estimate(msgs, c) <= budget {
			caps = c
			break
		}
	}
	out := render(msgs, caps)
	if len(out) > budget {
		out, _ = headTail(out, budget*3/4, budget/4)
	}
	return out
}

// estimate is about the length render gives msgs with caps, from above.
func estimate(msgs []message.Message, caps [3]int) int {
	const label, marker = 40, 60
	clipped := func(s string, n int) int { return min(len(s), n+marker+128) }
	total := 0
	for _, m := range msgs {
		total += label
		switch {
		case isSummary(m):
			total += len(m.Content)
		case m.Role == message.RoleTool:
			total += clipped(m.Content, caps[1])
		default:
			total += clipped(m.Content, caps[0])
			for _, c := range m.ToolCalls {
				total += label + len(c.Name) + clipped(c.Arguments, caps[2])
			}
		}
	}
	return total
}

func render(msgs []message.Message, caps [3]int) string {
	var b strings.Builder
	calls := callsOf(msgs)
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		switch {
		case isSummary(m):
			fmt.Fprintf(&b, "[earlier summary, covering %d messages]\n%s", covered(m), m.Content)
			continue
		case m.Role == message.RoleTool:
			fmt.Fprintf(&b, "[tool result: %s]\n%s", toolName(calls[i]), clipMiddle(m.Content, caps[1]))
			continue
		}
		fmt.Fprintf(&b, "[%s]", m.Role)
		if m.Content != "" {
			b.WriteString("\n" + clipMiddle(m.Content, caps[0]))
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "\n→ tool call %s %s", toolName(c), clipMiddle(c.Arguments, caps[2]))
		}
		if n := len(m.Images); n > 0 {
			fmt.Fprintf(&b, "\n[%d image(s) attached]", n)
		}
	}
	return b.String()
}

// clipMiddle shortens s to about n bytes, keeping its head and tail.
func clipMiddle(s string, n int) string {
	out, _ := headTail(s, n*2/3, n/3)
	return out
}
