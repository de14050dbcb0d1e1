package session

import (
	"fmt"
	"runtime"
	"testing"
)

// Listing sealed sessions opens each file's header envelope only: the
// memory it takes does not grow with the bodies (here 20 sessions of
// 5 MB, whose bodies together are 100 MB).
func TestSealedListMemoryDoesNotGrowWithTheBodies(t *testing.T) { // case scale-1
	s := sealedStore(t, 7)
	sess := bigSession()
	sess.History = sess.History[:2500] // 5 MB
	for i := range 20 {
		if err := s.Save(fmt.Sprintf("s%02d", i), sess); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.List(); err != nil { // warms the buffer pools
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	list, err := s.List()
	runtime.ReadMemStats(&after)
	if err != nil || len(list) != 20 || list[0].Messages != 2500 || list[0].Err != nil || list[0].Title != "big" {
		t.Fatalf("list: %v %d %+v", err, len(list), list[0])
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Fatalf("listing 20 sealed sessions of 5 MB allocated %d KB", alloc>>10)
	}
}
