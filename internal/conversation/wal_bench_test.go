package conversation

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// Benchmarks of the store under long sessions, on sessions the engine
// itself writes (checkpoints, journal and snapshots included):
//
//	go test -run XXX -bench 'Turn$' -benchtime 200x ./internal/conversation/
//	go test -run XXX -bench 'BytesWritten|FirstTurn' -benchtime 1x ./internal/conversation/

// benchEngine returns a bound engine on a fresh store under dir whose
// session has about msgs messages of about size bytes in all, built
// through turns, and the session's name. The context window is large
// enough that nothing is compacted.
func benchEngine(b *testing.B, dir string, msgs, size int, journal bool) *Engine {
	b.Helper()
	st, err := session.Open(filepath.Join(dir, "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	jdir := ""
	if journal {
		jdir = filepath.Join(dir, "transcripts")
	}
	e := New(Options{Store: st, Provider: offline.New(""), JournalDir: jdir, ContextWindow: 1 << 40})
	if journal { // bound from the start: every turn goes to the journal
		if err := e.Save("long", false); err != nil {
			b.Fatal(err)
		}
	}
	turns := max(msgs/2, 1)
	body := strings.Repeat("word ", max(size/turns/5, 1))
	for i := range turns {
		if _, err := e.Turn(context.Background(), fmt.Sprint("question ", i, " ", body), nil); err != nil {
			b.Fatal(err)
		}
	}
	if !journal { // saved once, as a session written with the journal off is
		if err := e.Save("long", false); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// BenchmarkTurn is the cost of one durable turn, everything but the
// provider (the offline provider answers at once): adoption check, repair
// and validation, the checkpoint, the journal commits of the prompt and
// the reply, and the snapshot when the policy asks for one.
func BenchmarkTurn(b *testing.B) {
	for _, c := range []struct {
		name       string
		msgs, size int
		prompt     string
	}{
		{"10msgs", 10, 10 << 10, "one more question "},
		{"short-200B", 2, 200, strings.Repeat("a short question about the code ", 6)}, // 192 bytes
		{"10000msgs-20MB", 10000, 20 << 20, "one more question "},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := benchEngine(b, b.TempDir(), c.msgs, c.size, true)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if _, err := e.Turn(context.Background(), fmt.Sprint(c.prompt, i), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// wchar is the number of bytes this process has passed to write(2) and
// its kin so far (/proc/self/io), or -1 where that is not known.
func wchar() int64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "wchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// BenchmarkBytesWritten1000Turns runs 1,000 turns on a 20 MB session and
// reports the bytes written per turn and their ratio to the final session
// size plus the turns' own bytes (the target is at most 3).
func BenchmarkBytesWritten1000Turns(b *testing.B) {
	if wchar() < 0 {
		b.Skip("no /proc/self/io")
	}
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		e := benchEngine(b, dir, 10000, 20<<20, true)
		var journalBefore int64
		if jst, err := os.Stat(filepath.Join(dir, "transcripts", e.JournalID()+".jsonl")); err == nil {
			journalBefore = jst.Size()
		}
		before := wchar()
		var own int64
		b.StartTimer()
		for i := range 1000 {
			prompt := fmt.Sprint("one more question ", i)
			reply, err := e.Turn(context.Background(), prompt, nil)
			if err != nil {
				b.Fatal(err)
			}
			own += int64(len(prompt) + len(reply.Content))
		}
		if _, err := e.Close(false); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		written := wchar() - before
		st, _ := os.Stat(filepath.Join(dir, "sessions", "long.json"))
		b.ReportMetric(float64(written)/1000, "B/turn")
		b.ReportMetric(float64(written)/float64(st.Size()+own), "x(size+turns)")
		if jst, err := os.Stat(filepath.Join(dir, "transcripts", e.JournalID()+".jsonl")); err == nil {
			b.ReportMetric(float64(jst.Size()-journalBefore)/1000, "journalB/turn")
		}
		b.StartTimer()
	}
}

// BenchmarkBytesWrittenShortTurns runs 1,000 short chat turns (prompts of
// about 200 bytes) on a new bound session, the everyday case where a
// turn's own bytes are few, and reports the journal's growth per turn and
// every byte written per turn (journal, snapshots, list index).
func BenchmarkBytesWrittenShortTurns(b *testing.B) {
	if wchar() < 0 {
		b.Skip("no /proc/self/io")
	}
	body := strings.Repeat("a short question about the code ", 6) // 192 bytes
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		e := benchEngine(b, dir, 2, 200, true)
		jpath := filepath.Join(dir, "transcripts", e.JournalID()+".jsonl")
		jst, _ := os.Stat(jpath)
		before := wchar()
		b.StartTimer()
		for i := range 1000 {
			if _, err := e.Turn(context.Background(), fmt.Sprint(body, i), nil); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Close(false); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		written := wchar() - before
		jend, err := os.Stat(jpath)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(jend.Size()-jst.Size())/1000, "journalB/turn")
		b.ReportMetric(float64(written)/1000, "B/turn")
		b.StartTimer()
	}
}

// BenchmarkFirstTurnWithoutJournal is the first turn on a 40,000-message
// session saved with the journal off: its whole history reaches the
// journal in one write and one fsync.
func BenchmarkFirstTurnWithoutJournal(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		old := benchEngine(b, dir, 40000, 20<<20, false)
		old.Close(false)
		e := New(Options{Store: old.Store(), Provider: offline.New(""), JournalDir: filepath.Join(dir, "transcripts"), ContextWindow: 1 << 40})
		b.StartTimer()
		start := time.Now()
		if _, err := e.Load("long"); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Turn(context.Background(), "and now?", nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/load+turn")
	}
}
