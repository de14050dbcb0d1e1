package compact

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

var (
	bigOnce sync.Once
	big     []message.Message
)

// bigHistory is a 2,000-message, ~4 MB agent session: 200 rounds of a
// request, a reply with a reasoning block, reads of 40 files (so a file is
// read again, often with the same content), test runs
// with coloured output (a huge one every 5th round) and parallel calls.
func bigHistory() []message.Message {
	bigOnce.Do(func() {
		file := func(f, v int) string {
			return fmt.Sprintf("// file%d.go v%d\n", f, v) + strings.Repeat(fmt.Sprintf("func f%d() { return %d }\n", f, v), 165)
		}
		big = []message.Message{sys("You are chatcli, an agent.")}
		for r := range 200 {
			id := func(k string) string { return fmt.Sprintf("%s%d", k, r) }
			out := fmt.Sprintf("=== run %d\n", r) + strings.Repeat("\x1b[32mok\x1b[0m  \tpkg/sub\t0.012s\n", 170)
			if r%5 == 0 {
				out = fmt.Sprintf("=== run %d\n", r) + strings.Repeat(" 42%\r 99%\r100% \x1b[31mFAIL\x1b[0m TestHuge line\n", 800)
			}
			big = append(big,
				user(fmt.Sprintf("request %d: ", r)+strings.Repeat("please continue with the refactoring. ", 5)),
				asst("<thinking>"+strings.Repeat("let me think about this step. ", 50)+"</thinking>\nI'll read the file."),
				calls(tc(id("r"), "read_file", fmt.Sprintf(`{"path":"src/file%d.go"}`, r%40))),
				res(id("r"), file(r%40, r/20)),
				calls(tc(id("t"), "run_command", fmt.Sprintf(`{"command":"go test ./pkg%d"}`, r%7))),
				res(id("t"), out),
				calls(tc(id("p"), "read_file", fmt.Sprintf(`{"path":"src/file%d.go"}`, (r+3)%40)), tc(id("l"), "list_dir", `{"path":"src"}`)),
				res(id("p"), file((r+3)%40, r/20)),
				res(id("l"), strings.Repeat("file.go\n", 60)),
				asst("Done with this step.   \n\n\n\n"+strings.Repeat("Summary of the change. ", 12)),
			)
		}
	})
	return big
}

func TestBigHistoryShape(t *testing.T) {
	h := bigHistory()
	if err := message.Validate(h); err != nil || len(h) != 2001 || Size(h) < 4<<20 || Size(h) > 5<<20 {
		t.Fatalf("%d messages, %d bytes: %v", len(h), Size(h), err)
	}
}

// BenchmarkLevel1 runs Compact on the big history with a target that
// trimming alone reaches: validation, planning, level 1 and the checks.
func BenchmarkLevel1(b *testing.B) {
	h := bigHistory()
	b.SetBytes(int64(Size(h)))
	var r Result
	for b.Loop() {
		var err error
		r, err = Compact(context.Background(), h, Options{Keep: DefaultKeep, TargetBytes: Size(h) * 9 / 10})
		if err != nil || r.Level != 1 {
			b.Fatalf("level %d: %v", r.Level, err)
		}
	}
	b.ReportMetric(float64(r.Before.Bytes), "before-B")
	b.ReportMetric(float64(r.After.Bytes), "after-B")
}

// BenchmarkLevel2Request summarises the big history through the openai
// client and an httptest server, and reports the size of the request body
// against the size of the messages it summarises.
func BenchmarkLevel2Request(b *testing.B) {
	srv := newChatServer(b, func(w http.ResponseWriter, r *http.Request) {
		sse(w, "## Key Decisions\n- refactor in small steps\n## Current Task State\n- continuing", 64)
	})
	h := bigHistory()
	p := srv.client(b)
	var r Result
	for b.Loop() {
		var err error
		if r, err = Compact(context.Background(), h, Options{Keep: DefaultKeep, Provider: p}); err != nil || r.Level != 2 {
			b.Fatalf("level %d: %v", r.Level, err)
		}
	}
	p0 := makePlan(h, DefaultKeep)
	trimmed, _ := trim(h, p0)
	_, body := srv.request(0)
	b.ReportMetric(float64(Size(h)), "history-B")
	b.ReportMetric(float64(Size(summarisable(h[:p0.cut]))), "middle-B")
	b.ReportMetric(float64(Size(summarisable(trimmed[:p0.cut]))), "trimmed-middle-B")
	b.ReportMetric(float64(len(body)), "request-B")
	b.ReportMetric(float64(len(r.History[1].Content)), "summary-B")
}
