package compact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
)

// histories are the shapes every invariant is checked on.
func histories(t *testing.T) map[string][]message.Message {
	parallel := []message.Message{sys("You are chatcli."), user(long("inspect the repo", 400)),
		calls(tc("a", "read_file", `{"path":"go.mod"}`), tc("b", "list_dir", `{"path":"internal"}`), tc("c", "run_command", `{"command":"go test ./..."}`)),
		res("c", long("ok  \tgithub.com/x/y\t0.01s", 500)), res("a", long("module x", 500)), res("b", long("message/ session/", 300)),
		asst(long("all green", 300))}
	parallel = append(parallel, turns(1, 5)...)
	parallel = append(parallel, user(long("now both", 200)),
		calls(tc("p", "read_file", `{"path":"a.go"}`), tc("q", "read_file", `{"path":"b.go"}`)),
		res("p", long("package a", 400)), res("q", long("package b", 400)), asst("done"), user("thanks, last question"))

	several := []message.Message{sys("S1: you are a chat assistant")}
	several = append(several, turns(0, 4)...)
	several = append(several, sys("S2: mode changed to coder"))
	several = append(several, turns(4, 4)...)
	several = append(several, sys("S3: be terse"), calls(tc("m", "run_command", `{"command":"make"}`)), res("m", long("built", 200)))
	several = append(several, turns(8, 2)...)

	earlier := []message.Message{sys("You are chatcli."),
		summaryMsg(30, "[COMPACT — covering 30 earlier messages]\n\n## Files Read\n- `old.go`\n\n## Files Modified\n- none\n\n"+
			"## Commands Executed\n- `make lint`\n\n## Key Decisions\n- keep the old API\n\n## Errors & Resolutions\n- none\n\n## Current Task State\n- porting")}
	earlier = append(earlier, turns(0, 6)...)

	agent := []message.Message{sys("You are an agent."), user("refactor the parser")}
	for i := range 12 {
		id := fmt.Sprintf("r%d", i)
		agent = append(agent, calls(tc(id, "read_file", fmt.Sprintf(`{"path":"p%d.go"}`, i%3))),
			res(id, long(fmt.Sprintf("package p // v%d", i%3), 2000)+"\n\n\n\n  "))
	}
	agent = append(agent, asst("refactored"))

	return map[string][]message.Message{
		"tool calls":      append([]message.Message{sys("You are chatcli.")}, turns(0, 8)...),
		"parallel calls":  parallel,
		"several systems": several,
		"earlier summary": earlier,
		"agent loop":      agent,
		"chatcli marker":  loadCompat(t),
		"summary after the request": {sys("s"), user(long("q", 500)), asst("<think>" + long("a", 3000) + "</think>ok"), summaryMsg(5, "[COMPACT — covering 5 earlier messages]"),
			calls(tc("k", "read_file", `{"path":"k.go"}`)), res("k", long("k", 3000)), asst("continuing")},
		"only system":      {sys(long("huge system prompt", 5000)), user("hi"), asst("hello"), user("bye")},
		"system mid group": append(append([]message.Message{sys("s")}, turns(0, 3)...), sys("s2"), calls(tc("z", "edit_file", `{"path":"z.go"}`)), res("z", "edited"), user("ok?")),
	}
}

func loadCompat(t *testing.T) []message.Message {
	data, err := os.ReadFile("testdata/chatcli-compactme.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		ChatHistory json.RawMessage `json:"chat_history"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	h, err := message.DecodeList(f.ChatHistory)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestInvariantsTable(t *testing.T) {
	opts := map[string]func(h []message.Message) Options{
		"default": func([]message.Message) Options { return Options{Keep: DefaultKeep} },
		"guided": func([]message.Message) Options {
			return Options{Keep: GuidedKeep, Instruction: "keep the API decisions"}
		},
		"keep 3":     func([]message.Message) Options { return Options{Keep: 3} },
		"keep 1":     func([]message.Message) Options { return Options{Keep: 1} },
		"keep 0":     func([]message.Message) Options { return Options{} },
		"half":       func(h []message.Message) Options { return Options{Keep: 4, TargetBytes: Size(h) / 2} },
		"emergency":  func([]message.Message) Options { return Options{Keep: 4, TargetBytes: 1} },
		"big target": func(h []message.Message) Options { return Options{Keep: 4, TargetBytes: Size(h) - 1} },
	}
	levels := map[int]int{}
	defer func() {
		if levels[1] == 0 || levels[2] == 0 || levels[3] == 0 || levels[0] == 0 {
			t.Errorf("the table does not reach every level and ErrNothingToGain: %v", levels)
		}
	}()
	for hn, h := range histories(t) {
		for on, mk := range opts {
			t.Run(hn+"/"+on, func(t *testing.T) {
				in := h
				for pass := 1; pass <= 2; pass++ {
					o := mk(in)
					snapshot := deepCopy(in)
					r, err := Compact(context.Background(), in, o)
					if d := cmp.Diff(snapshot, in); d != "" {
						t.Fatalf("pass %d modified its input:\n%s", pass, d)
					}
					levels[r.Level]++
					if err != nil {
						if !errors.Is(err, ErrNothingToGain) {
							t.Fatalf("pass %d: %v", pass, err)
						}
						if len(r.History) != len(in) || (len(in) > 0 && &r.History[0] != &in[0]) || r.Level != 0 {
							t.Fatalf("pass %d: error with a changed history", pass)
						}
						return
					}
					checkInvariants(t, in, r, o.Keep)
					in = r.History
				}
			})
		}
	}
}

func TestSeq2CutMovesToToolPairBoundary(t *testing.T) { // case seq-2
	h := []message.Message{sys("s"), user(long("first question about the build", 1500)),
		calls(tc("a", "run_command", `{"command":"go build ./..."}`)), res("a", "ok"), asst("built"), user("and now?")}
	r, err := Compact(context.Background(), h, Options{Keep: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 3)
	want := []message.Message{h[0], r.History[1], h[2], h[3], h[4], h[5]}
	if d := cmp.Diff(want, r.History); d != "" {
		t.Fatalf("cut not at the pair boundary (-want +got):\n%s", d)
	}
	if r.Covered != 1 || !strings.Contains(r.History[1].Content, "first question") {
		t.Fatalf("summary %+v", r.History[1])
	}
}

func TestCmp1SeveralSystemMessagesSurviveSeparately(t *testing.T) { // case cmp-1
	s1, s2 := sys("S1: you are a helpful assistant"), sys("S2: mode changed to coder")
	h := []message.Message{s1}
	for i := range 20 {
		h = append(h, user(long(fmt.Sprintf("turn %d", i), 200)), asst(long(fmt.Sprintf("reply %d", i), 200)))
	}
	h = append(h, s2)
	for i := 20; i < 40; i++ {
		h = append(h, user(long(fmt.Sprintf("turn %d", i), 200)), asst(long(fmt.Sprintf("reply %d", i), 200)))
	}
	r, err := Compact(context.Background(), h, Options{Keep: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 4)
	if len(r.History) != 7 || !cmp.Equal(r.History[0], s1) || !cmp.Equal(r.History[1], s2) || !isSummary(r.History[2]) {
		t.Fatalf("got %d messages: %v", len(r.History), roles(r.History))
	}
	if r.Covered != 76 || !strings.HasPrefix(r.History[2].Content, "[COMPACT — covering 76 earlier messages]") {
		t.Fatalf("covered %d: %q", r.Covered, message.Clip(r.History[2].Content, 80))
	}
}

func TestCmp2NothingToGainIsOneAttempt(t *testing.T) { // case cmp-2
	h := []message.Message{sys(long("a system prompt larger than the budget", 20000)), user("hi"), asst("hello"), user("bye")}
	var events []Event
	r, err := Compact(context.Background(), h, Options{Keep: DefaultKeep, TargetBytes: 1000,
		Progress: func(e Event) { events = append(events, e) }})
	if !errors.Is(err, ErrNothingToGain) || err.Error() != "compact: cannot reduce further" {
		t.Fatalf("want ErrNothingToGain, got %v", err)
	}
	if &r.History[0] != &h[0] || r.Level != 0 || r.After != r.Before {
		t.Fatal("history changed")
	}
	if len(events) != 2 || events[0].Phase != "start" || events[1].Phase != "done" ||
		!strings.Contains(events[1].Text, "cannot reduce further") {
		t.Fatalf("events %v", events)
	}
}

func TestSecondCompactionLeavesOneSummaryWithAccumulatedCount(t *testing.T) {
	h := append([]message.Message{sys("s")}, turns(0, 6)...) // 25 messages
	r1, err := Compact(context.Background(), h, Options{Keep: 4})
	if err != nil || r1.Covered != 20 {
		t.Fatalf("first: %v, covered %d", err, r1.Covered)
	}
	h2 := append(append([]message.Message{}, r1.History...), turns(6, 3)...) // 6 + 12
	r2, err := Compact(context.Background(), h2, Options{Keep: 4, Instruction: "focus on file names"})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h2, r2, 4)
	if summaries(r2.History) != 1 || r2.Covered != 20+4+8 {
		t.Fatalf("%d summaries, covered %d", summaries(r2.History), r2.Covered)
	}
	s := r2.History[1].Content
	if !strings.HasPrefix(s, `[GUIDED COMPACT — covering 32 earlier messages | instruction: "focus on file names"]`) {
		t.Fatalf("header %q", message.Clip(s, 120))
	}
	for _, f := range []string{"`src/file0.go`", "`src/file7.go`"} { // from the first summary and from the new calls
		if !strings.Contains(s, f) {
			t.Errorf("summary lost %s:\n%s", f, s)
		}
	}
	// Right after: nothing left to fold.
	if _, err := Compact(context.Background(), r2.History, Options{Keep: 4}); !errors.Is(err, ErrNothingToGain) {
		t.Fatalf("third compaction: %v", err)
	}
	// A larger Keep puts the summary inside the tail: it is folded, never kept next to a new one.
	h3 := append(append([]message.Message{}, r2.History...), turns(9, 1)...)
	r3, err := Compact(context.Background(), h3, Options{Keep: DefaultKeep})
	if err == nil && summaries(r3.History) != 1 || err != nil && !errors.Is(err, ErrNothingToGain) {
		t.Fatalf("third with larger keep: %v, %d summaries", err, summaries(r3.History))
	}
}

func TestCompactionRightAfterLoadingAChatCLISession(t *testing.T) {
	h := loadCompat(t) // ChatCLI's truncation marker, summary_of 3, then 12 messages
	r, err := Compact(context.Background(), h, Options{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 2)
	if r.Covered != 3+10 || len(r.History) != 3 {
		t.Fatalf("covered %d, %d messages", r.Covered, len(r.History))
	}
}

func TestInvalidInputIsRefusedUnchanged(t *testing.T) {
	h := []message.Message{user("x"), calls(tc("a", "read_file", "{}")), user("y")}
	r, err := Compact(context.Background(), h, Options{})
	if !errors.Is(err, message.ErrSequence) || &r.History[0] != &h[0] {
		t.Fatalf("got %v", err)
	}
}

func roles(h []message.Message) []string {
	var out []string
	for _, m := range h {
		out = append(out, string(m.Role))
	}
	return out
}
