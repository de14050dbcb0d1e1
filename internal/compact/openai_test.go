package compact

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// workHistory is a coding session: 12 messages of work, then a tail of 4.
func workHistory() []message.Message {
	return []message.Message{
		sys("You are chatcli."),
		user(long("please refactor the parser in internal/parse", 600)),
		calls(tc("r", "read_file", `{"path":"internal/parse/parse.go"}`)),
		res("r", long("package parse // the old parser", 3000)),
		calls(tc("w", "write_file", `{"path":"internal/parse/parse.go","content":"package parse"}`)),
		res("w", "written"),
		calls(tc("x", "run_command", `{"command":"go test ./internal/parse/"}`)),
		res("x", "FAIL: TestLexer (0.00s)\n    lexer_test.go:12: off by one"),
		asst(long("Fixed the off-by-one in the lexer", 500)),
		user(long("good; also rename Tok to Token", 300)),
		calls(tc("e", "edit_file", `{"path":"internal/parse/token.go"}`)),
		res("e", "edited"),
		asst(long("Renamed Tok to Token everywhere", 400)),
		user("now add docs to the package"),
		calls(tc("d", "edit_file", `{"path":"internal/parse/doc.go"}`)), res("d", "edited"),
		asst("Docs added."),
	}
}

const weakReply = "Here is the summary.\n\n## Files Read\n- internal/parse/parse.go: the parser\n\n" +
	"**Key Decisions:**\n* switched to a table-driven lexer\n\n## Errors and Resolutions\n- off-by-one in the lexer, fixed\n\n" +
	"## Current Task State\n- parser refactored; docs next\n"

func TestLevel2ThroughTheOpenAIClient(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, weakReply, 7) })
	h := workHistory()
	snapshot := deepCopy(h)
	var events []Event
	r, err := Compact(context.Background(), h, Options{Keep: 4, Provider: srv.client(t),
		Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 4)
	if !cmp.Equal(h, snapshot) {
		t.Fatal("input modified")
	}

	req, _ := srv.request(0)
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[0].Content != systemPrompt ||
		req.Messages[1].Role != "user" || req.Model != "m" || !req.Stream || req.MaxTokens == nil || *req.MaxTokens != summaryMaxTokens {
		t.Fatalf("request %+v", req)
	}
	for _, want := range []string{"## Files Read\n## Files Modified\n## Commands Executed\n## Key Decisions\n## Errors & Resolutions\n## Current Task State"} {
		if !strings.Contains(req.Messages[0].Content, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	for _, want := range []string{"Summarise these 12 earlier messages", "[user]\nplease refactor the parser in internal/parse",
		`→ tool call read_file {"path":"internal/parse/parse.go"}`, "[tool result: run_command]\nFAIL: TestLexer",
		"[assistant]\nRenamed Tok to Token"} {
		if !strings.Contains(req.Messages[1].Content, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Contains(req.Messages[1].Content, "now add docs") {
		t.Error("the kept tail must not be summarised")
	}

	want := "[COMPACT — covering 12 earlier messages]\n\n" +
		"## Files Read\n- internal/parse/parse.go: the parser\n\n" +
		"## Files Modified\n- `internal/parse/parse.go`\n- `internal/parse/token.go`\n\n" +
		"## Commands Executed\n- `go test ./internal/parse/`\n\n" +
		"## Key Decisions\n- switched to a table-driven lexer\n\n" +
		"## Errors & Resolutions\n- off-by-one in the lexer, fixed\n\n" +
		"## Current Task State\n- parser refactored; docs next"
	got := r.History[1]
	if d := cmp.Diff(want, got.Content); d != "" {
		t.Errorf("summary (-want +got):\n%s", d)
	}
	if got.Role != message.RoleUser || got.Meta == nil || !got.Meta.IsSummary || got.Meta.SummaryOf != 12 || r.Level != 2 {
		t.Errorf("summary message %+v, level %d", got.Meta, r.Level)
	}
	var phases []string
	for _, e := range events {
		phases = append(phases, e.Phase)
	}
	if d := cmp.Diff([]string{"start", "summarise", "summary", "done"}, phases); d != "" || events[1].Text != "Summarising older messages via LLM… (Esc cancels)" ||
		!strings.HasPrefix(events[2].Text, "Summary applied (17 → 6 msgs, ") {
		t.Errorf("events %v", events)
	}
}

func TestGuidedLevel2SendsTheInstruction(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, "## Key Decisions\n- use tokens", 100) })
	r, err := Compact(context.Background(), workHistory(), Options{Keep: GuidedKeep, Instruction: "keep only naming decisions",
		Provider: srv.client(t)})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := srv.request(0)
	if !strings.HasSuffix(req.Messages[0].Content, `follow it when choosing what to keep and what to stress: "keep only naming decisions"`) {
		t.Errorf("system prompt %q", req.Messages[0].Content)
	}
	if !strings.HasPrefix(r.History[1].Content, `[GUIDED COMPACT — covering 12 earlier messages | instruction: "keep only naming decisions"]`) {
		t.Errorf("header %q", message.Clip(r.History[1].Content, 120))
	}
}

func TestCancelDuringLevel2LeavesTheHistoryUntouched(t *testing.T) {
	started := make(chan struct{})
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		event(w, textChunk("## Files Read\n"))
		close(started)
		select { // the rest never comes
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	h := workHistory()
	snapshot := deepCopy(h)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	var phases []string
	r, err := Compact(ctx, h, Options{Keep: 4, TargetBytes: 1, Provider: srv.client(t),
		Progress: func(e Event) { phases = append(phases, e.Phase) }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want a context error, got %v", err)
	}
	if r.Level != 0 || len(r.History) != len(h) || &r.History[0] != &h[0] || !cmp.Equal(h, snapshot) {
		t.Fatal("history changed")
	}
	if strings.Contains(strings.Join(phases, ","), "truncate") {
		t.Fatalf("cancellation fell through to truncation: %v", phases)
	}
}

func TestProviderErrorFallsThroughToTruncation(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"message":"upstream exploded","type":"server_error"}}`))
	})
	h := workHistory()
	// Without a size to reach (/compact), a failed summary changes nothing.
	if r, err := Compact(context.Background(), h, Options{Keep: 4, Provider: srv.client(t)}); err == nil || r.Level != 0 || len(r.History) != len(h) {
		t.Fatalf("manual compaction after a provider error: level %d, %v", r.Level, err)
	}
	r, err := Compact(context.Background(), h, Options{Keep: 4, TargetBytes: Size(h) - 1, Provider: srv.client(t)})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 4)
	var perr *provider.Error
	if r.Level != 3 || !errors.As(r.SummaryErr, &perr) || perr.Kind != provider.KindServer {
		t.Fatalf("level %d, summary error %v", r.Level, r.SummaryErr)
	}
	m := r.History[1].Content
	if !strings.HasPrefix(m, "[CONTEXT TRUNCATED: 12 earlier messages removed because their summary failed (openai: server error; retry later (HTTP 500): upstream exploded)") ||
		!strings.Contains(m, "## Files Modified\n- `internal/parse/parse.go`\n- `internal/parse/token.go`") ||
		!strings.Contains(m, "## Commands Executed\n- `go test ./internal/parse/`") {
		t.Fatalf("marker %q", m)
	}
}

func TestOversizedReplyIsRefused(t *testing.T) {
	srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, long("## Key Decisions\n-", 20000), 4096) })
	h := workHistory()
	r, err := Compact(context.Background(), h, Options{Keep: 4, Provider: srv.client(t)})
	if !errors.Is(err, ErrSummaryTooLarge) || !errors.Is(err, ErrNothingToGain) || &r.History[0] != &h[0] {
		t.Fatalf("want ErrSummaryTooLarge and the history unchanged, got %v", err)
	}
}

func TestLevel2FoldsAnEarlierSummaryEvenWhenTheModelDropsItsFacts(t *testing.T) {
	for name, reply := range map[string]string{"weak reply": weakReply, "empty reply": ""} {
		t.Run(name, func(t *testing.T) {
			srv := newChatServer(t, func(w http.ResponseWriter, r *http.Request) { sse(w, reply, 50) })
			old := summaryMsg(30, "[COMPACT — covering 30 earlier messages]\n\n## Files Read\n- `old.go`\n\n"+
				"## Commands Executed\n- `make lint`\n\n## Key Decisions\n- keep the v1 API")
			h := append([]message.Message{sys("You are chatcli."), old}, workHistory()[1:]...)
			r, err := Compact(context.Background(), h, Options{Keep: 4, Provider: srv.client(t)})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, h, r, 4)
			s := r.History[1].Content
			if r.Covered != 30+12 || !strings.Contains(s, "## Files Read\n") || !strings.Contains(s, "- `old.go`") ||
				!strings.Contains(s, "- `make lint`") || !strings.Contains(s, "- `internal/parse/token.go`") {
				t.Fatalf("covered %d:\n%s", r.Covered, s)
			}
			req, _ := srv.request(0)
			if !strings.Contains(req.Messages[1].Content, "[earlier summary, covering 30 messages]\n[COMPACT — covering 30") {
				t.Error("the earlier summary is not in the transcript")
			}
		})
	}
}
