package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// bigMiddle is a history whose middle holds 57 messages and about 60,000
// characters (19 groups of a request, a tool call and its result), then a
// kept tail of 4.
func bigMiddle() []message.Message {
	h := []message.Message{sys("You are chatcli.")}
	for i := range 19 {
		id := fmt.Sprintf("c%d", i)
		h = append(h, user(long(fmt.Sprintf("step %d: look at internal/p%d", i, i), 1500)),
			calls(tc(id, "read_file", fmt.Sprintf(`{"path":"internal/p%d/p.go"}`, i))),
			res(id, long(fmt.Sprintf("package p%d // source", i), 1700)))
	}
	return append(h, user("now the last step"), asst("working"), user("go on"), asst("done"))
}

// TestSummaryFitsAnEightThousandTokenWindow: the summary of a 60,000
// character middle for a model with an 8,192-token window goes out in
// requests that each fit the window (the strict fake refuses any body over
// 8,192 tokens at 3 bytes a token), and one summary covers every message:
// nothing is dropped without one.
func TestSummaryFitsAnEightThousandTokenWindow(t *testing.T) {
	h := bigMiddle()
	middle := Size(h[1:58])
	if middle < 60_000 || len(h[1:58]) != 57 {
		t.Fatalf("middle = %d bytes, %d messages", middle, len(h[1:58]))
	}
	srv := providertest.NewOpenAI(t, providertest.Reply{Text: "## Key Decisions\n- read every package\n\n## Current Task State\n- at the last step"})
	srv.MaxPromptBytes = 8192 * BytesPerToken
	c, err := openai.New(openai.Config{Model: "small-model", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []int{0, Size(h) / 4} {
		r, err := Compact(context.Background(), h, Options{Keep: 4, Provider: c, WindowTokens: 8192, TargetBytes: target})
		if err != nil {
			t.Fatalf("target %d: %v (refusals %q)", target, err, srv.Refusals())
		}
		if r.SummaryErr != nil || r.Level < 2 || len(srv.Refusals()) > 0 {
			t.Fatalf("target %d: level %d, summary error %v, refusals %q", target, r.Level, r.SummaryErr, srv.Refusals())
		}
		checkInvariants(t, h, r, 4)
		at := lastSummary(r.History)
		if at < 0 || r.History[at].Meta.SummaryOf < 57 || !strings.Contains(r.History[at].Content, "at the last step") {
			t.Fatalf("target %d: summary %+v", target, r.History[at])
		}
		if !strings.Contains(r.History[at].Content, "internal/p0/p.go") || !strings.Contains(r.History[at].Content, "internal/p18/p.go") {
			t.Errorf("the files of the first and last chunks are missing:\n%s", r.History[at].Content)
		}
	}
	if srv.Requests() < 4 {
		t.Errorf("%d requests: the middle was not chunked", srv.Requests())
	}
}

func TestWindowTooSmallForASummary(t *testing.T) {
	if _, err := requestBudget(Options{WindowTokens: 1000}); !errors.Is(err, ErrWindowTooSmall) {
		t.Errorf("err = %v", err)
	}
	if b, _ := requestBudget(Options{WindowTokens: 8192}); b > 8192*BytesPerToken*3/4 || b < minChunkBytes {
		t.Errorf("budget for 8k = %d", b)
	}
	if b, _ := requestBudget(Options{}); b != DefaultRequestBytes {
		t.Errorf("no window: %d", b)
	}
}

// TestFactListsAreCapped: a summary over 80 file reads lists the latest
// maxSectionLines and says how many more there were.
func TestFactListsAreCapped(t *testing.T) {
	var h []message.Message
	for i := range 80 {
		id := fmt.Sprintf("r%d", i)
		h = append(h, calls(tc(id, "read_file", fmt.Sprintf(`{"path":"f%02d.go"}`, i))), res(id, long("x", 400)))
	}
	h = append(h, user("next"), asst("ok"))
	r, err := Compact(context.Background(), h, Options{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := r.History[lastSummary(r.History)].Content
	if !strings.Contains(s, "- … and 50 more") || strings.Contains(s, "f00.go") || !strings.Contains(s, "f79.go") {
		t.Errorf("summary:\n%s", s)
	}
}

// TestImagesCountAsImagesNotAsTheirDataURL: a 1 MB screenshot in the latest
// request makes the history no larger than a per-image estimate.
func TestImagesCountAsImagesNotAsTheirDataURL(t *testing.T) {
	shot := "data:image/png;base64," + strings.Repeat("A", 1<<20)
	h := []message.Message{{Role: message.RoleUser, Content: "what is on this screen?", Images: message.ImageRefs(shot)}}
	if got := Size(h); got != len("what is on this screen?")+imageBytes {
		t.Errorf("Size = %d", got)
	}
}

// TestHugeMiddleTakesABoundedNumberOfRequests: a middle of about 1.2 MB for
// an 8k window is summarised in at most maxSummaryChunks requests.
func TestHugeMiddleTakesABoundedNumberOfRequests(t *testing.T) {
	h := []message.Message{sys("s")}
	for i := range 400 {
		h = append(h, user(long(fmt.Sprintf("request %d", i), 1500)), asst(long(fmt.Sprintf("answer %d", i), 1500)))
	}
	h = append(h, user("last"), asst("ok"))
	srv := providertest.NewOpenAI(t, providertest.Reply{Text: "## Current Task State\n- many steps"})
	srv.MaxPromptBytes = 8192 * BytesPerToken
	c, err := openai.New(openai.Config{Model: "small-model", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compact(context.Background(), h, Options{Keep: 2, Provider: c, WindowTokens: 8192})
	if err != nil || r.Level != 2 {
		t.Fatalf("level %d: %v (refusals %q)", r.Level, err, srv.Refusals())
	}
	if n := srv.Requests(); n > maxSummaryChunks || n < 2 {
		t.Errorf("%d requests", n)
	}
}
