package journal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// BenchmarkAppend measures one Sync that appends one new 1 KB message:
// lock, read what others appended, hash the history, one write, one fsync.
// The history grows by one message per iteration, as in a conversation.
func BenchmarkAppend(b *testing.B) {
	j, _, err := Open(b.TempDir(), NewID(), noKey)
	if err != nil {
		b.Fatal(err)
	}
	body := strings.Repeat("x", 1024)
	var h []message.Message
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h = append(h, message.Message{Role: message.RoleUser, Content: fmt.Sprint(i, body)})
		if n, err := j.Sync(h, ReasonSync); err != nil || n != 1 {
			b.Fatalf("%d %v", n, err)
		}
	}
}
