package search

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestBatchedAddMatchesOneByOne builds one index in a single Add (several
// batches, tokenized in parallel) and one indexing each document on its
// own: both must rank every query the same.
func TestBatchedAddMatchesOneByOne(t *testing.T) {
	docs := corpus(3*batchDocs+17, 200)
	whole, single := NewIndex(), NewIndex()
	whole.Add(docs...)
	for _, d := range docs {
		single.Add(d)
		single.mu.Lock()
		single.flush()
		single.mu.Unlock()
	}
	if whole.Len() != len(docs) || single.Len() != len(docs) {
		t.Fatalf("Len = %d, %d, want %d", whole.Len(), single.Len(), len(docs))
	}
	for _, q := range []string{"the", "database migration", "БД", "Straße", "数据库", "ação"} {
		a, errA := whole.Search(q, 20)
		b, errB := single.Search(q, 20)
		if errA != nil || errB != nil || len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%q: batched and one-by-one indexes differ (%v, %v)", q, errA, errB)
		}
	}
}

// TestConcurrentAddSearch is for the race detector.
func TestConcurrentAddSearch(t *testing.T) {
	ix := NewIndex()
	docs := corpus(400, 100)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(docs); i += 4 {
				ix.Add(docs[i])
				if _, err := ix.Search(fmt.Sprint("the ", i), 3); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if ix.Len() != len(docs) {
		t.Errorf("Len = %d, want %d", ix.Len(), len(docs))
	}
}
