package conversation

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// modeScan finds the mode message a backward walk over the whole history
// finds, as the history grows in place, is cut or becomes a new array.
func TestModeScanAgreesWithAWalk(t *testing.T) {
	walk := func(h []message.Message) int {
		for i := len(h) - 1; i >= 0; i-- {
			if isModeMessage(&h[i]) {
				return i
			}
		}
		return -1
	}
	r := rand.New(rand.NewPCG(3, 4))
	modes := []string{ModeChat, ModeAgent, ModeCoder}
	for run := range 200 {
		var m modeScan
		h := make([]message.Message, 0, 64)
		for step := range 50 {
			var next message.Message
			switch r.IntN(4) {
			case 0:
				mode := modes[r.IntN(len(modes))]
				next = message.Message{Role: message.RoleSystem, Content: modePrompts[mode], Meta: &message.Meta{Mode: mode}}
			case 1:
				next = message.Message{Role: message.RoleSystem, Content: "other"}
			default:
				next = message.Message{Role: message.RoleUser, Content: "q"}
			}
			switch r.IntN(8) {
			case 0:
				h = append(slices.Clone(h), next)
			case 1:
				h = h[:r.IntN(len(h)+1)]
			default:
				h = append(h, next)
			}
			if got, want := m.find(h), walk(h); got != want {
				t.Fatalf("run %d step %d: find = %d, walk = %d", run, step, got, want)
			}
		}
	}
}
