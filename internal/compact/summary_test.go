package compact

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

func TestParseSectionsToleratesHeadingStyles(t *testing.T) {
	reply := "Summary follows\n# Files Read\n- a.go\n### 2. files modified:\n* b.go\n**Commands Executed**\n- `make`\n" +
		"## Key decisions\n- one\n- one\n## Errors and Resolutions\n- none\n## Notes\nextra line\n## CURRENT TASK STATE\n• going"
	s, found := parseSections(reply)
	want := sections{{"- a.go"}, {"- b.go"}, {"- `make`"}, {"- one"}, nil, {"extra line", "- going"}}
	if !found || !cmp.Equal(s, want) {
		t.Fatalf("got %q", s)
	}
	s, found = parseSections("The user refactored the parser.\nTests pass.")
	if found || !cmp.Equal(s[secState], []string{"The user refactored the parser.", "Tests pass."}) {
		t.Fatalf("prose: %q", s)
	}
}

func TestFactsFromToolCalls(t *testing.T) {
	msgs := []message.Message{calls(
		tc("1", "read_file", `{"path":"a.go"}`), tc("2", "list_dir", `{}`), tc("3", "search_files", `{"path":"src","pattern":"TODO"}`),
		tc("4", "write_file", `{"file_path":"b.go","content":"x"}`), tc("5", "edit_file", `{"path":"a.go"}`),
		tc("6", "run_command", `{"command":"go test ./...\n"}`), tc("7", "read_file", `not json`), tc("8", "delete_file", `{"path":"c.go"}`),
		tc("9", "run_command", "{\"command\":\"echo `date`\"}"), tc("10", "read_file", `{"path":"a.go"}`))}
	var got []string
	for _, f := range collectFacts(msgs) {
		got = append(got, fmt.Sprintf("%s: %s", sectionNames[f.section], f.line))
	}
	want := []string{"Files Read: - `a.go`", "Files Read: - `.` (listed)", "Files Read: - `src` (searched for `TODO`)",
		"Files Modified: - `b.go`", "Files Modified: - `a.go`", "Commands Executed: - `go test ./...`",
		"Files Modified: - `c.go` (deleted)", "Commands Executed: - `` echo `date` ``"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatal(d)
	}
}

func TestOfflineSummaryIsDeterministic(t *testing.T) {
	h := workHistory()
	o := Options{Keep: 4, Provider: offline.New("")}
	r1, err := Compact(context.Background(), h, o)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := Compact(context.Background(), h, Options{Keep: 4})
	if !cmp.Equal(r1.History, r2.History) {
		t.Fatal("offline and nil providers differ")
	}
	checkInvariants(t, h, r1, 4)
	want := "[COMPACT — covering 12 earlier messages]\n\n" +
		"## Files Read\n- `internal/parse/parse.go`\n\n" +
		"## Files Modified\n- `internal/parse/parse.go`\n- `internal/parse/token.go`\n\n" +
		"## Commands Executed\n- `go test ./internal/parse/`\n\n" +
		"## Key Decisions\n- assistant: " + message.Clip(h[8].Content, digestChars) + "\n- assistant: " + message.Clip(h[12].Content, digestChars) + "\n\n" +
		"## Errors & Resolutions\n- run_command: FAIL: TestLexer (0.00s)\n\n" +
		"## Current Task State\n- user asked: " + message.Clip(h[1].Content, digestChars) + "\n- user asked: " + message.Clip(h[9].Content, digestChars)
	if d := cmp.Diff(want, r1.History[1].Content); d != "" {
		t.Fatalf("(-want +got)\n%s", d)
	}
}

func TestSummaryNotSmallerIsRefused(t *testing.T) {
	h := []message.Message{sys("s"), user("hi"), asst("hello"), user("how are you"), asst("fine"), user("bye")}
	r, err := Compact(context.Background(), h, Options{Keep: 1})
	if !errors.Is(err, ErrSummaryTooLarge) || !errors.Is(err, ErrNothingToGain) || &r.History[0] != &h[0] || r.Level != 0 {
		t.Fatalf("got %v", err)
	}
}

func TestTruncationReachesTheTargetKeepingTheLatestRequest(t *testing.T) {
	h := []message.Message{sys("S1"), summaryMsg(40, "[COMPACT — covering 40 earlier messages]\n\n## Key Decisions\n- x")}
	h = append(h, turns(0, 4)...)
	h = append(h, sys("S2"))
	for i := range 4 { // a tail of big (distinct) outputs that levels 1 and 2 keep
		id := fmt.Sprintf("b%d", i)
		h = append(h, calls(tc(id, "run_command", `{"command":"make"}`)), res(id, long(fmt.Sprintf("build log %d", i), 7000)))
	}
	h = append(h, user("what failed?"), asst("nothing"))
	target := Size(h) / 3
	var events []Event
	r, err := Compact(context.Background(), h, Options{Keep: 10, TargetBytes: target, Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 2)
	if r.Level != 3 || r.After.Bytes > target || summaries(r.History) != 1 {
		t.Fatalf("level %d, %d > %d bytes", r.Level, r.After.Bytes, target)
	}
	// The summary stays (with its sections); the oldest kept turns after it
	// are dropped and counted in it.
	m := r.History[2]
	if !cmp.Equal(r.History[:2], []message.Message{h[0], h[18]}) || !strings.HasPrefix(m.Content, "[COMPACT — covering") ||
		!strings.Contains(m.Content, "## Commands Executed") ||
		!strings.HasSuffix(m.Content, "later messages were also removed to fit the context window.]") || m.Role != message.RoleUser ||
		!m.Meta.IsSummary || m.Meta.SummaryOf != r.Covered {
		t.Fatalf("got %v, marker %+v", roles(r.History), m)
	}
	var phases []string
	for _, e := range events {
		phases = append(phases, e.Phase)
	}
	if d := cmp.Diff([]string{"start", "trim", "summarise", "summary", "truncate", "done"}, phases); d != "" {
		t.Fatalf("phases: %s", d)
	}
}

func TestProgressTexts(t *testing.T) {
	h := append([]message.Message{sys("s")}, turns(0, 30)...)
	var events []Event
	_, err := Compact(context.Background(), h, Options{Keep: 10, TargetBytes: 20000, Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`^Compacting history \(121 msgs, 36\.4 KB → target 19\.5 KB\)$`),
		regexp.MustCompile(`^Trim: 121 msgs, 36\.4 KB → 35\.6 KB \(27 reasoning blocks\)$`),
		regexp.MustCompile(`^Summarising older messages \(deterministic summary, no LLM\)…$`),
		regexp.MustCompile(`^Summary applied \(121 → 13 msgs, 36\.4 KB → 4\.8 KB\)$`),
		regexp.MustCompile(`^Compacted \(level 2\): 121 → 13 msgs, 36\.4 KB → 4\.8 KB$`),
	}
	if len(events) != len(want) {
		t.Fatalf("events %v", events)
	}
	for i, e := range events {
		if !want[i].MatchString(e.Text) {
			t.Errorf("event %d %q does not match %s", i, e.Text, want[i])
		}
	}
}

func TestHumanSizes(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 4404019: "4.2 MB", 2936013: "2.8 MB"} {
		if got := human(n); got != want {
			t.Errorf("human(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSizeAndEstimateTokens(t *testing.T) {
	h := []message.Message{user("12345"), calls(tc("a", "read_file", `{"p":1}`)), res("a", "xyz"),
		{Role: message.RoleUser, Content: "img", Images: message.ImageRefs("data:image/png;base64,AAAA")}}
	text := 5 + len("read_file") + 7 + 3 + 3
	if got, want := Size(h), text+imageBytes; got != want {
		t.Errorf("Size = %d, want %d (an image counts as imageBytes, not its data URL)", got, want)
	}
	if got, want := EstimateTokens(h), (text+2)/3+4*4+8+1600; got != want {
		t.Errorf("EstimateTokens = %d, want %d", got, want)
	}
	english := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100)
	if EstimateTokens([]message.Message{user(english)}) < len(english)/4 {
		t.Error("the estimate must not be below one token per 4 bytes")
	}
}

func TestTranscriptFitsTheRequestBudget(t *testing.T) {
	var middle []message.Message
	q, out, a := long("q", 3000), long("out", 9000), long("a", 3000)
	for i := range 400 {
		id := fmt.Sprintf("t%d", i)
		middle = append(middle, user(q), calls(tc(id, "read_file", `{"path":"x.go"}`)), res(id, out), asst(a))
	}
	for _, budget := range []int{0, 8 << 10} {
		req := buildRequest(middle, Options{RequestBytes: budget})
		if budget == 0 {
			budget = DefaultRequestBytes
		}
		if n := len(req.Messages[1].Content); n > budget+200 || !utf8Valid(req.Messages[1].Content) {
			t.Errorf("budget %d: transcript %d bytes", budget, n)
		}
	}
}

func utf8Valid(s string) bool { return message.ValidUTF8(s) == s }
