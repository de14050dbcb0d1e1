package journal

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// Hashes gives what hashing the whole history gives, whatever happens to
// the history between calls: appends, repeats, truncation, a message
// replaced in the middle (repair, compaction), a fresh copy.
func TestHashesAgreeWithHashingEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c Hashes
	var h []message.Message
	for step := range 2000 {
		switch k := r.IntN(10); {
		case k < 6:
			h = append(h, msg(message.RoleUser, fmt.Sprint(r.IntN(5)))) // many repeats
		case k < 7 && len(h) > 0:
			h = h[:r.IntN(len(h))]
		case k < 8 && len(h) > 0:
			i := r.IntN(len(h))
			h = slices.Clone(h) // messages are replaced, never edited in place (Hashes.Of)
			h[i] = msg(message.RoleAssistant, fmt.Sprint("replaced ", step))
		case k < 9:
			h = slices.Clone(h)
		default:
			if len(h) > 0 {
				i := r.IntN(len(h))
				h = slices.Delete(slices.Clone(h), i, i+1)
			}
		}
		got := slices.Clone(c.Of(h))
		want := HashHistory(h)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: cached hashes differ from a full hash", step)
		}
		for _, n := range []int{0, len(h) / 2, len(h)} {
			if c.Digest(n) != DigestOf(want[:n]) {
				t.Fatalf("step %d: digest of %d messages differs", step, n)
			}
		}
	}
}
