package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/session"
)

// BenchmarkListEngine2000x5MB lists 2,000 sessions of 5 MB written by the
// conversation engine (EngineStore), as a listing after the first finds
// them: the list index answers for each unchanged file from its stat,
// and each journal is stat'ed for turns after the snapshot. The first
// listing reads each file's header and its last bytes, whatever its size.
func BenchmarkListEngine2000x5MB(b *testing.B) {
	home := b.TempDir()
	size, err := EngineStore(home, 2000)
	if err != nil {
		b.Fatal(err)
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(home, "transcripts")) // as the command line reads a store
	want, err := st.Stat(EngineName(0))
	if err != nil {
		b.Fatal(err)
	}
	// Past the window in which the index reads a just-changed file again
	// (2 s), the first listing writes the entries the others use.
	time.Sleep(2100 * time.Millisecond)
	if _, err := st.List(); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, session.CacheDirName, "session-list.json")); err != nil {
		b.Fatalf("no list index after the first listing: %v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		list, err := st.List()
		if err != nil || len(list) != 2000 || list[0].Err != nil || list[0].Messages != want.Messages {
			b.Fatalf("list: %v %d %+v", err, len(list), list[0])
		}
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB/session")
}
