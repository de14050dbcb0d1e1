package picker

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/bench"
	"github.com/chatcli/chatcli/internal/session"
)

// BenchmarkFirstFrame10000Sessions times the picker's first screen with
// rows over 10,000 sessions of 5 MB written by the conversation engine
// (bench.EngineStore): from the start of the listing to the drawn frame
// holding the first batch of rows. The rest stream in after it.
func BenchmarkFirstFrame10000Sessions(b *testing.B) {
	home := b.TempDir()
	if _, err := bench.EngineStore(home, 10000); err != nil {
		b.Fatal(err)
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(home, "transcripts"))
	src := Source{Rows: StoreRows(st, nil)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		batches := make(chan []Row, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			src.Rows(ctx, func(r []Row) {
				select {
				case batches <- r:
				case <-ctx.Done():
				}
			})
		}()
		m := newModel(src)
		tm, _ := m.Update(rowsMsg{rows: <-batches})
		frame := tm.(model).View().Content
		cancel()
		<-done
		if !strings.Contains(frame, "engine-") || !strings.Contains(frame, "loading…") {
			b.Fatalf("first frame:\n%s", frame)
		}
	}
}
