package bench

import (
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// BenchmarkStatEngine5MB is session.Store.Stat of one 5 MB session
// written by the conversation engine, from a store other than the one
// that wrote it (as another window or surface stats it): the file
// carries the store's mark, so its header block alone is read, whatever
// its length.
func BenchmarkStatEngine5MB(b *testing.B) {
	home := b.TempDir()
	if _, err := EngineStore(home, 1); err != nil {
		b.Fatal(err)
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(home, "transcripts"))
	want, err := st.Stat(EngineName(0))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h, err := st.Stat(EngineName(0))
		if err != nil || h.Messages != want.Messages {
			b.Fatalf("stat: %v %+v", err, h)
		}
	}
}
