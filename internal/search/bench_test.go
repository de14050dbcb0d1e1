package search

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The benchmark corpus: 100,000 messages, about 100 MB. Built on first use,
// so plain `go test` never pays for it.
const (
	benchDocs     = 100_000
	benchAvgBytes = 1000
)

var bench struct {
	once     sync.Once
	docs     []Doc
	bytes    int64
	ix       *Index
	build    time.Duration
	heapText uint64 // heap in use with only the corpus
	heapIdx  uint64 // heap in use with the corpus and its index
	sysIdx   uint64
}

// heapInuse returns the heap in use and the memory obtained from the OS
// after two collections (the second empties the sync.Pools' victim caches).
func heapInuse() (inuse, sys uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse, ms.Sys
}

func benchIndex(b *testing.B) *Index {
	bench.once.Do(func() {
		bench.docs = corpus(benchDocs, benchAvgBytes)
		for _, d := range bench.docs {
			bench.bytes += int64(len(d.Text))
		}
		bench.heapText, _ = heapInuse()
		start := time.Now()
		bench.ix = NewIndex()
		bench.ix.Add(bench.docs...)
		if _, err := bench.ix.Search("the", 10); err != nil {
			b.Fatal(err)
		}
		bench.build = time.Since(start)
		bench.heapIdx, bench.sysIdx = heapInuse()
		var postingBytes int
		for _, l := range bench.ix.lists {
			postingBytes += cap(l.data)
		}
		b.Logf("posting lists %.1f MB", float64(postingBytes)/1e6)
		b.Logf("corpus %d messages, %.1f MB, %d terms; build %v; heap in use %.1f MB (text %.1f MB + index %.1f MB); sys %.1f MB",
			len(bench.docs), float64(bench.bytes)/1e6, len(bench.ix.terms), bench.build,
			float64(bench.heapIdx)/1e6, float64(bench.heapText)/1e6,
			float64(bench.heapIdx-bench.heapText)/1e6, float64(bench.sysIdx)/1e6)
	})
	return bench.ix
}

// firstQuery runs the query that makes an index index what was added.
func firstQuery(b *testing.B, ix *Index) {
	if _, err := ix.Search("database", 10); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBuild measures the first-query cost: indexing the whole corpus
// and answering one query.
func BenchmarkBuild(b *testing.B) {
	benchIndex(b)
	b.SetBytes(bench.bytes)
	b.ReportAllocs()
	for b.Loop() {
		ix := NewIndex()
		ix.Add(bench.docs...)
		firstQuery(b, ix)
	}
	b.ReportMetric(float64(bench.heapIdx-bench.heapText)/1e6, "index-MB")
	b.ReportMetric(float64(bench.heapIdx)/1e6, "heap-MB")
}

// rareTerm returns the first, in byte order, of the terms of 6 or more
// lower-case ASCII letters found in 20 to 50 documents.
func rareTerm(ix *Index) string {
	best := ""
	for t, id := range ix.terms {
		letters := len(t) >= 6 && strings.Trim(t, "abcdefghijklmnopqrstuvwxyz") == ""
		if df := ix.lists[id].df; letters && df >= 20 && df <= 50 && (best == "" || t < best) {
			best = t
		}
	}
	return best
}

// BenchmarkSearch measures warm queries over the built index.
func BenchmarkSearch(b *testing.B) {
	ix := benchIndex(b)
	for _, q := range []string{
		"the",                         // in almost every English message
		"database",                    // common
		rareTerm(ix),                  // in 20 to 50 messages
		"database migration error",    // three terms
		"the session search",          // three terms, one very common
		"БД ошибка",                   // Cyrillic, case folded
		"strasse grosser ubersetzung", // German, ß and umlauts folded
		"数据库",                         // three Han tokens
	} {
		b.Run(fmt.Sprintf("%d-terms/%s", len(queryTerms(q)), q), func(b *testing.B) {
			b.ReportAllocs()
			var hits []Hit
			for b.Loop() {
				var err error
				if hits, err = ix.Search(q, 10); err != nil {
					b.Fatal(err)
				}
			}
			if len(hits) == 0 {
				b.Fatalf("%q: no hits", q)
			}
			postings := 0
			for _, t := range queryTerms(q) {
				postings += int(ix.lists[ix.terms[t]].df)
			}
			b.ReportMetric(float64(postings), "postings")
		})
	}
}

// BenchmarkBuildOneByOne indexes the corpus with one Add call per message,
// the way a caller reading message by message would.
func BenchmarkBuildOneByOne(b *testing.B) {
	benchIndex(b)
	b.SetBytes(bench.bytes)
	b.ReportAllocs()
	for b.Loop() {
		ix := NewIndex()
		for _, d := range bench.docs {
			ix.Add(d)
		}
		firstQuery(b, ix)
	}
}
