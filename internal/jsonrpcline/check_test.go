package jsonrpcline

import (
	"strings"
	"testing"
)

// BenchmarkCheck measures the check every incoming line goes through, on
// a session/prompt of 1 MiB of text.
func BenchmarkCheck(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"` +
		strings.Repeat("déjà vu ", 1<<17) + `"}]}}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if m, err := Check(line); err != nil || m.Kind != Call {
			b.Fatal(m, err)
		}
	}
}
