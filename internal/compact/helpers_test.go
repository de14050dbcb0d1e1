package compact

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
)

func sys(s string) message.Message  { return message.Message{Role: message.RoleSystem, Content: s} }
func user(s string) message.Message { return message.Message{Role: message.RoleUser, Content: s} }
func asst(s string) message.Message { return message.Message{Role: message.RoleAssistant, Content: s} }

func tc(id, name, args string) message.ToolCall {
	return message.ToolCall{ID: id, Type: "function", Name: name, Arguments: args}
}

// calls is an assistant message requesting cs (parallel when several).
func calls(cs ...message.ToolCall) message.Message {
	return message.Message{Role: message.RoleAssistant, ToolCalls: cs}
}

func res(id, content string) message.Message {
	return message.Message{Role: message.RoleTool, ToolCallID: id, Content: content}
}

func summaryMsg(n int, content string) message.Message {
	return message.Message{Role: message.RoleUser, Content: content, Meta: &message.Meta{IsSummary: true, SummaryOf: n}}
}

// long is s padded with words to about n bytes.
func long(s string, n int) string {
	var b strings.Builder
	b.WriteString(s)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, " word%d", i)
	}
	return b.String()
}

// turn is one exchange: a request, a read, its result and a reply.
func turn(i int) []message.Message {
	id := fmt.Sprintf("c%d", i)
	return []message.Message{
		user(long(fmt.Sprintf("request %d: please look at file%d.go", i, i), 300)),
		calls(tc(id, "read_file", fmt.Sprintf(`{"path":"src/file%d.go"}`, i))),
		res(id, long(fmt.Sprintf("package main // file%d", i), 600)),
		asst(long(fmt.Sprintf("<thinking>private %d</thinking>\nanswer %d", i, i), 300)),
	}
}

// turns returns n turns numbered from first.
func turns(first, n int) []message.Message {
	var h []message.Message
	for i := first; i < first+n; i++ {
		h = append(h, turn(i)...)
	}
	return h
}

// deepCopy copies h so a later comparison catches any write through it.
func deepCopy(h []message.Message) []message.Message {
	out := slices.Clone(h)
	for i := range out {
		out[i].ToolCalls = slices.Clone(out[i].ToolCalls)
		out[i].Images = slices.Clone(out[i].Images)
		if out[i].Meta != nil {
			m := *out[i].Meta
			out[i].Meta = &m
		}
	}
	return out
}

func systems(h []message.Message) []message.Message {
	var out []message.Message
	for _, m := range h {
		if m.Role == message.RoleSystem {
			out = append(out, m)
		}
	}
	return out
}

func summaries(h []message.Message) int {
	n := 0
	for _, m := range h {
		if isSummary(m) {
			n++
		}
	}
	return n
}

// weight is how many original messages the non-system messages of h
// stand for; a compaction never changes it.
func weight(h []message.Message) int {
	n := 0
	for _, m := range h {
		if m.Role != message.RoleSystem {
			n += covered(m)
		}
	}
	return n
}

// checkInvariants fails t when out, compacted from in keeping keep
// messages, breaks a rule of DESIGN.md §6–7.
func checkInvariants(t *testing.T, in []message.Message, r Result, keep int) {
	t.Helper()
	out := r.History
	if err := message.Validate(out); err != nil {
		t.Fatalf("result fails Validate: %v", err)
	}
	if d := cmp.Diff(systems(in), systems(out)); d != "" {
		t.Fatalf("system messages changed (-in +out):\n%s", d)
	}
	if Size(out) > Size(in) || len(out) > len(in) {
		t.Fatalf("result grew: %d msgs %d B -> %d msgs %d B", len(in), Size(in), len(out), Size(out))
	}
	if summaries(out) > 1 {
		t.Fatalf("%d summaries after compaction", summaries(out))
	}
	if weight(out) != weight(in) {
		t.Fatalf("summary_of does not account for every message: weight %d -> %d", weight(in), weight(out))
	}
	if li := latestRequest(in); li >= 0 {
		lo := latestRequest(out)
		if lo < 0 || !cmp.Equal(in[li], out[lo]) {
			t.Fatalf("latest request not kept verbatim")
		}
		usersAfter := func(h []message.Message) int {
			n := 0
			for _, m := range h {
				if m.Role == message.RoleUser {
					n++
				}
			}
			return n
		}
		if usersAfter(out[lo+1:]) > usersAfter(in[li+1:]) {
			t.Fatalf("a user message now follows the latest request")
		}
		if len(in)-li != len(out)-lo {
			t.Fatalf("messages after the latest request were dropped")
		}
	}
	if r.Level <= 2 {
		k := min(keep, len(in))
		if d := cmp.Diff(in[len(in)-k:], out[len(out)-k:]); d != "" {
			t.Fatalf("kept tail changed:\n%s", d)
		}
	}
	if r.After != statsOf(out) || r.Before != statsOf(in) {
		t.Fatalf("stats %+v %+v", r.Before, r.After)
	}
	if s := lastSummary(out); s >= 0 && r.Covered != out[s].Meta.SummaryOf {
		t.Fatalf("Covered %d, summary_of %d", r.Covered, out[s].Meta.SummaryOf)
	}
}
