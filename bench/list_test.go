package bench

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// BenchmarkListEngine2000x5MB lists 2,000 sessions of 5 MB written by the
// conversation engine (EngineStore): listing reads each file's header and
// its last bytes, whatever its size.
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
	want, err := st.Stat(EngineName(0))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.List(); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(st.Dir(), ".list-index.json")); !errors.Is(err, fs.ErrNotExist) {
		b.Fatalf("the listing indexed the engine's files (%v): it read them whole", err)
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
