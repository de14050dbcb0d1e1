package conversation

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The cache gives what message.Request gives, whatever the engine does to
// its history: appends of every role (runs of user messages merge), a
// prompt marked unanswered, histories replaced by new arrays (rewind,
// compaction, adoption) shorter or longer.
func TestRequestCacheIsRequest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c requestCache
	var h []message.Message
	for step := range 3000 {
		switch k := r.IntN(10); {
		case k < 4:
			h = append(h, message.Message{Role: message.RoleUser, Content: fmt.Sprint("u", step), Images: []message.Image{{MediaType: "image/png", Data: fmt.Sprint("i", step)}}})
		case k < 6:
			h = append(h, message.Message{Role: message.RoleAssistant, Content: fmt.Sprint("a", step),
				ToolCalls: []message.ToolCall{{ID: fmt.Sprint("c", step), Name: "f"}}})
		case k < 7:
			h = append(h, message.Message{Role: message.RoleTool, ToolCallID: fmt.Sprint("c", step), Content: "r",
				Meta: &message.Meta{ToolError: step%2 == 0}})
		case k < 8 && len(h) > 0: // markUnanswered
			m := &h[len(h)-1]
			m.Meta = &message.Meta{Unanswered: true}
		case k < 9 && len(h) > 0: // rewind: a new, shorter array
			h = slices.Clone(h[:r.IntN(len(h))])
		default: // adoption: a new array, same messages
			h = slices.Clone(h)
		}
		if diff := cmp.Diff(message.Request(h), c.of(h), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("step %d: cache differs from Request (-want +got):\n%s", step, diff)
		}
	}
}
