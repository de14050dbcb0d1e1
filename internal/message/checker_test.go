package message

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A Checker fed a history that grows in place, is cut, is replaced by a
// new array or breaks a rule always answers what Validate answers, error
// text included.
func TestCheckerAgreesWithValidate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	next := func(h []Message) Message {
		switch r.IntN(7) {
		case 0, 1:
			return Message{Role: RoleUser, Content: "q"}
		case 2:
			return Message{Role: RoleAssistant, Content: "a"}
		case 3: // a call, answered or not by what follows
			return Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: fmt.Sprint("c", r.IntN(3)), Name: "f"}, {ID: fmt.Sprint("d", r.IntN(3)), Name: "f"}}}
		case 4:
			return Message{Role: RoleSystem, Content: "s"}
		case 5: // the result of a call of the last assistant message, if any
			for i := len(h) - 1; i >= 0; i-- {
				if h[i].Role == RoleAssistant && len(h[i].ToolCalls) > 0 {
					return Message{Role: RoleTool, ToolCallID: h[i].ToolCalls[r.IntN(len(h[i].ToolCalls))].ID, Content: "r"}
				}
			}
			return Message{Role: RoleTool, ToolCallID: "none", Content: "r"}
		default:
			return Message{Role: RoleAssistant} // empty: breaks a rule
		}
	}
	for run := range 300 {
		var c Checker
		h := make([]Message, 0, 64)
		for step := range 60 {
			switch r.IntN(10) {
			case 0: // a new array with the same messages
				h = append(slices.Clone(h), next(h))
			case 1: // cut, then appended to in place
				h = h[:r.IntN(len(h)+1)]
			default:
				h = append(h, next(h))
			}
			want, got := Validate(h), c.Validate(h)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("run %d step %d: Validate = %v, Checker = %v\n%+v", run, step, want, got, h)
			}
		}
	}
}

// The check of one turn (a prompt and its reply appended) on a history of
// 200,000 messages: in full, and by a Checker that checked the history
// before the turn (appends that outgrow the array make a new one, which
// is checked whole, as in the engine).
//
//	go test -run XXX -bench Checker ./internal/message/
func BenchmarkCheckerTurnAt200000(b *testing.B) {
	h := make([]Message, 0, 200_000)
	for i := range 100_000 {
		h = append(h, Message{Role: RoleUser, Content: fmt.Sprint("q", i)}, Message{Role: RoleAssistant, Content: "a"})
	}
	b.Run("Validate", func(b *testing.B) {
		for b.Loop() {
			if err := Validate(h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Checker", func(b *testing.B) {
		var c Checker
		g := h
		for b.Loop() {
			g = append(g, Message{Role: RoleUser, Content: "q"}, Message{Role: RoleAssistant, Content: "a"})
			if err := c.Validate(g); err != nil {
				b.Fatal(err)
			}
		}
	})
}
