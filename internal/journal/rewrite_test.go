package journal

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// peakHeap runs fn and returns the largest HeapAlloc seen while it ran,
// sampled every millisecond.
func peakHeap(t *testing.T, fn func() error) uint64 {
	t.Helper()
	runtime.GC()
	var peak uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	err := fn()
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return peak
}

// Rekey and Decrypt stream the journal a line at a time: the heap stays
// far below the journal's size, and lines longer than the read buffer
// come through whole.
func TestRekeyAndDecryptStream(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 32 MB journal")
	}
	path := filepath.Join(t.TempDir(), "0123456789abcdef0123456789abcdef.jsonl")
	var doc bytes.Buffer
	for i := 0; doc.Len() < 32<<20; i++ {
		doc.WriteString(`{"seq":1,"text":"` + strings.Repeat("x", 4000+i%100) + `"}` + "\n")
	}
	long := `{"seq":2,"text":"` + strings.Repeat("y", 300<<10) + `"}` + "\n"
	doc.WriteString(long)
	if err := os.WriteFile(path, doc.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	size, sum := uint64(doc.Len()), sha256.Sum256(doc.Bytes())
	doc = bytes.Buffer{} // out of the heap measured
	k := testKey(t, 3)
	defer debug.SetGCPercent(debug.SetGCPercent(20)) // garbage, which a loaded machine collects late, is not what is measured
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	peak := peakHeap(t, func() error { _, _, err := Rekey(path, k, k); return err })
	t.Logf("rekey: heap %d bytes above %d for a journal of %d", peak-base, base, size)
	if peak > base+size/2 {
		t.Errorf("rekey: heap %d bytes above %d for a journal of %d", peak-base, base, size)
	}
	if peak = peakHeap(t, func() error { _, _, err := Decrypt(path, k); return err }); peak > base+size/2 {
		t.Errorf("decrypt: heap %d bytes above %d for a journal of %d", peak-base, base, size)
	}
	if got, _ := os.ReadFile(path); sha256.Sum256(got) != sum {
		t.Fatal("sealed and decrypted, the journal is not what it was")
	}
}
