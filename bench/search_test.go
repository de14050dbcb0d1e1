package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

// searchHome returns the store the index benchmarks run on:
// BENCH_SEARCH_HOME when set (a store bench/search.sh built, such as 200
// sessions of 5 MB), else 20 sessions of 512 KiB built here.
func searchHome(b *testing.B) string {
	if home := os.Getenv("BENCH_SEARCH_HOME"); home != "" {
		return home
	}
	home := b.TempDir()
	if _, err := SearchStore(home, 20, 512<<10, 16<<10, nil); err != nil {
		b.Fatal(err)
	}
	return home
}

// openIndex opens and brings up to date the index of the store at home.
func openIndex(b *testing.B, home string) (*session.Store, *index.Index) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	ix := index.Open(index.Options{Store: st, JournalDir: filepath.Join(home, "transcripts")})
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(); err != nil {
		b.Fatal(err)
	}
	return st, ix
}

// BenchmarkIndexUpdateAfterTurn times bringing the index up to date after
// one turn of 16 KiB appended to a session of the store by the engine:
// listing the store, reading the journal's new records, and appending
// their entry to the index's log (fdatasynced); every 64th update writes
// a manifest instead, folding the log. It also reports cpu-ms/op, the
// process's user and system time of those updates (getrusage), which a
// busy machine moves less than the wall time, and max-ms, the slowest
// update (the one that folded the log, or waited for a merge).
func BenchmarkIndexUpdateAfterTurn(b *testing.B) {
	home := searchHome(b)
	st, ix := openIndex(b, home)
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""),
		JournalDir: filepath.Join(home, "transcripts"), ContextWindow: 1 << 40})
	if _, err := e.Load(SearchName(1)); err != nil {
		b.Fatal(err)
	}
	defer e.Close(false)
	prompt := "a turn about the " + SearchRareWord + " rollout "
	for len(prompt) < 16<<10 {
		prompt += "kalo mine ruvi "
	}
	var cpu, slowest time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := e.Turn(context.Background(), prompt, nil); err != nil {
			b.Fatal(err)
		}
		before, start := cpuTime(), time.Now()
		b.StartTimer()
		if _, err := ix.Sync(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		slowest = max(slowest, time.Since(start))
		cpu += cpuTime() - before
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms")
}

// BenchmarkIndexWarmQuery times queries on an open, up-to-date index,
// ten hits with snippets each: a rare word, a phrase, a phrase with an
// exclusion, a Thai word, and a word of middling frequency. It also
// reports cpu-ms/op (getrusage), which a busy machine moves less than
// the wall time.
func BenchmarkIndexWarmQuery(b *testing.B) {
	_, ix := openIndex(b, searchHome(b))
	for _, tc := range []struct{ name, query string }{
		{"rare", SearchRareWord},
		{"phrase", `"` + SearchPhrase + `"`},
		{"exclusion", SearchPhrase + " -" + SearchWord(500)},
		{"thai", SearchThaiWord},
		{"middling", SearchWord(500)},
	} {
		q, err := search.ParseQuery(tc.query)
		if err != nil {
			b.Fatal(err)
		}
		if hits, err := ix.Search(q, index.Filter{}, 10); err != nil || len(hits) == 0 {
			b.Fatalf("%s: %d hits, %v", tc.query, len(hits), err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			before := cpuTime()
			for b.Loop() {
				if _, err := ix.Search(q, index.Filter{}, 10); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkIndexBuild times building the index from nothing, reported in
// MB/s of journal read.
func BenchmarkIndexBuild(b *testing.B) {
	home := searchHome(b)
	var bytes int64
	filepath.WalkDir(filepath.Join(home, "transcripts"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				bytes += info.Size()
			}
		}
		return nil
	})
	b.SetBytes(bytes)
	for b.Loop() {
		if err := os.RemoveAll(filepath.Join(home, "index")); err != nil {
			b.Fatal(err)
		}
		openIndex(b, home)
	}
}
