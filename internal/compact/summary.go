package compact

import (
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

// Digest limits for the deterministic summary: lines kept per narrative
// section (Key Decisions, Errors & Resolutions, Current Task State), and
// characters per line.
var digestLines = [numSections]int{secDecisions: 3, secErrors: 5, secState: 5}

const digestChars = 80

// summarise replaces the non-system messages of h[:cut] by one summary
// message, after the system messages of h[:cut] and before h[cut:]. It
// returns the new history and the index of the summary. Errors are the
// provider's, unwrapped, or ErrSummaryTooLarge.
func (r *run) summarise(h []message.Message, cut int) ([]message.Message, int, error) {
	middle := summarisable(h[:cut])
	n := 0
	for _, m := range middle {
		n += covered(m)
	}
	var body sections
	if p := r.o.Provider; p == nil || p.Name() == offline.Name {
		r.emit("summarise", r.o.Lang.Sprintf("Summarising older messages (deterministic summary, no LLM)…"))
		body = deterministic(middle)
	} else {
		r.emit("summarise", r.o.Lang.Sprintf("Summarising older messages via LLM… (Esc cancels)"))
		var err error
		if body, err = r.llmSummary(middle); err != nil {
			return nil, 0, err
		}
	}
	sum := message.Message{
		Role:    message.RoleUser,
		Content: body.render(header(n, r.o.Instruction)),
		Meta:    &message.Meta{IsSummary: true, SummaryOf: n},
	}
	if len(sum.Content) >= Size(middle) {
		return nil, 0, ErrSummaryTooLarge
	}
	out := make([]message.Message, 0, len(h)-len(middle)+1)
	for _, m := range h[:cut] {
		if m.Role == message.RoleSystem {
			out = append(out, m)
		}
	}
	at := len(out)
	out = append(append(out, sum), h[cut:]...)
	return out, at, nil
}

// header is the first line of a summary covering n messages.
func header(n int, instruction string) string {
	if s := strings.TrimSpace(instruction); s != "" {
		return fmt.Sprintf("[GUIDED COMPACT — covering %d earlier messages | instruction: \"%s\"]", n, message.Clip(s, 200))
	}
	return fmt.Sprintf("[COMPACT — covering %d earlier messages]", n)
}

// merged is the model's reply parsed into sections, with the factual
// sections of folded summaries and the facts of the tool calls added. A
// reply with no text at all gives the deterministic digest instead.
func merged(reply string, middle []message.Message) sections {
	s, found := parseSections(message.ValidUTF8(reply))
	if !found && len(s[secState]) == 0 {
		return deterministic(middle)
	}
	for _, m := range middle {
		if isSummary(m) {
			old, _ := parseSections(m.Content)
			s.union(old, secFilesRead, secFilesModified, secCommands)
		}
	}
	for _, f := range collectFacts(middle) {
		s.addFact(f)
	}
	return s
}

// deterministic is the summary built without a model: the sections of
// folded summaries, the facts of the tool calls, and a digest (assistant
// replies, failed tool results, user requests, each clipped).
func deterministic(middle []message.Message) sections {
	var s sections
	for _, m := range middle {
		if isSummary(m) {
			old, _ := parseSections(m.Content)
			s.union(old)
		}
	}
	for _, f := range collectFacts(middle) {
		s.addFact(f)
	}
	calls := callsOf(middle)
	for i, m := range middle {
		switch {
		case isSummary(m):
		case m.Role == message.RoleAssistant && m.Content != "":
			if text, _ := stripReasoning(m.Content); strings.TrimSpace(text) != "" {
				s.add(secDecisions, "- assistant: "+message.Clip(text, digestChars))
			}
		case m.Role == message.RoleTool && looksFailed(m.Content):
			s.add(secErrors, "- "+toolName(calls[i])+": "+message.Clip(firstLine(m.Content), digestChars))
		case m.Role == message.RoleUser:
			s.add(secState, "- user asked: "+message.Clip(m.Content, digestChars))
		}
	}
	for _, i := range []int{secDecisions, secErrors, secState} {
		s.keepLast(i, digestLines[i])
	}
	return s
}

// failurePrefixes start the first line of a tool result that reports a
// failure.
var failurePrefixes = []string{"error", "err:", "fatal", "panic", "fail", "exception",
	"traceback", "permission denied", "no such file", "command not found", "exit status", "exit code", "[interrupted"}

func looksFailed(s string) bool {
	l := strings.ToLower(firstLine(s))
	for _, p := range failurePrefixes {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
