package message

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/google/go-cmp/cmp"
)

func u(s string) Message { return Message{Role: RoleUser, Content: s} }
func a(s string) Message { return Message{Role: RoleAssistant, Content: s} }
func call(ids ...string) Message {
	m := Message{Role: RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Type: "function", Name: "read_file", Arguments: "{}"})
	}
	return m
}
func result(id string) Message { return Message{Role: RoleTool, ToolCallID: id, Content: "ok"} }

func TestRepairKilledMidToolCall(t *testing.T) { // case seq-1
	h := []Message{u("read it"), call("a")}
	if err := Validate(h); !errors.Is(err, ErrSequence) {
		t.Fatalf("want a sequence error, got %v", err)
	}
	got, fixes := Repair(h)
	want := []Message{u("read it"), call("a"), {Role: RoleTool, ToolCallID: "a", Content: InterruptedResult, Meta: &Meta{Repair: RepairInterrupted}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatal(d)
	}
	if len(fixes) != 1 || fixes[0].Kind != RepairInterrupted || !strings.Contains(fixes[0].String(), `"a"`) {
		t.Fatalf("fixes %v", fixes)
	}
	if err := Validate(got); err != nil {
		t.Fatal(err)
	}
	again, fixes := Repair(got)
	if fixes != nil || !cmp.Equal(again, got) {
		t.Fatal("repair is not idempotent")
	}
}

func TestRepairTable(t *testing.T) {
	cases := []struct {
		name  string
		in    []Message
		kinds []string
	}{
		{"valid parallel calls", []Message{u("x"), call("a", "b"), result("b"), result("a"), a("done")}, nil},
		{"one of two parallel results missing", []Message{u("x"), call("a", "b"), result("a"), u("next")}, []string{RepairInterrupted}},
		{"orphan result", []Message{u("x"), result("z"), a("y")}, []string{RepairOrphanResult}},
		{"duplicate result", []Message{u("x"), call("a"), result("a"), result("a"), a("y")}, []string{RepairOrphanResult}},
		{"result after next assistant turn", []Message{u("x"), call("a"), a("text"), result("a")}, []string{RepairInterrupted, RepairOrphanResult}},
		{"empty assistant", []Message{u("x"), a(""), u("y")}, []string{RepairEmptyAssistant}},
		{"duplicate call ids", []Message{u("x"), call("a", "a"), result("a"), a("y")}, []string{RepairToolCallID, RepairInterrupted}},
		{"duplicate call ids answered", []Message{u("x"), call("a", "a"), result("a"), result("a"), a("y")}, []string{RepairToolCallID}},
		{"empty call ids", []Message{u("x"), call("", ""), result(""), result(""), a("y")}, []string{RepairToolCallID, RepairToolCallID}},
		{"killed with duplicate ids", []Message{u("x"), call("a", "a")}, []string{RepairToolCallID, RepairInterrupted, RepairInterrupted}},
		{"developer role", []Message{{Role: "developer", Content: "d"}, u("x")}, []string{RepairUnknownRole}},
		{"unknown role", []Message{u("x"), {Role: "critic", Content: "c"}, a("y")}, []string{RepairUnknownRole}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, fixes := Repair(c.in)
			var kinds []string
			for _, f := range fixes {
				kinds = append(kinds, f.Kind)
			}
			if !cmp.Equal(kinds, c.kinds) {
				t.Fatalf("fixes %v, want %v", kinds, c.kinds)
			}
			if err := Validate(got); err != nil {
				t.Fatalf("repaired history invalid: %v", err)
			}
			if (c.kinds == nil) != (Validate(c.in) == nil) {
				t.Fatal("Validate and Repair disagree")
			}
			if again, more := Repair(got); more != nil || !cmp.Equal(again, got) {
				t.Fatalf("repair is not idempotent: %v", more)
			}
			// No text is lost: every input content appears in the output.
			var all strings.Builder
			for _, m := range got {
				all.WriteString(m.Content + "\x00")
			}
			for _, m := range c.in {
				if !strings.Contains(all.String(), m.Content) {
					t.Fatalf("lost %q", m.Content)
				}
			}
		})
	}
}

func TestRequestNeverHoldsTwoUserMessagesInARow(t *testing.T) { // case seq-3
	unanswered := u("A")
	unanswered.Meta = &Meta{Unanswered: true}
	h := []Message{{Role: RoleSystem, Content: "s"}, u("q"), a("r"), unanswered, u("B")}
	req := Request(h)
	for i := 1; i < len(req); i++ {
		if req[i].Role == RoleUser && req[i-1].Role == RoleUser {
			t.Fatalf("two user messages in a row at %d", i)
		}
	}
	last := req[len(req)-1]
	if last.Content != "B" || last.Meta != nil || len(req) != 4 {
		t.Fatalf("the unanswered prompt was sent again: %+v", req)
	}
	if len(h) != 5 || h[3].Content != "A" || h[4].Content != "B" {
		t.Fatal("Request changed the history")
	}
	// Two prompts in a row that no failure marked (a file another tool
	// wrote) are merged, so neither is lost.
	req = Request([]Message{u("q"), a("r"), u("A"), u("B")})
	if len(req) != 3 || req[2].Content != "A\n\nB" {
		t.Fatalf("unmarked prompts not merged: %+v", req)
	}
}

func TestRequestKeepsAnUnansweredPromptThatWasAnsweredLater(t *testing.T) {
	unanswered := u("A")
	unanswered.Meta = &Meta{Unanswered: true}
	sys := Message{Role: RoleSystem, Content: "mode"}
	if req := Request([]Message{unanswered, a("late reply")}); len(req) != 2 || req[0].Content != "A" {
		t.Fatalf("an answered prompt was dropped: %+v", req)
	}
	if req := Request([]Message{unanswered, sys, u("B")}); len(req) != 2 || req[1].Content != "B" {
		t.Fatalf("system messages hid the prompt that supersedes it: %+v", req)
	}
}

func TestRequestMergesUserImages(t *testing.T) {
	img := u("B")
	img.Images = []Image{ParseImageRef("data:image/png;base64,AA==")}
	req := Request([]Message{u("A"), img})
	if len(req) != 1 || req[0].Content != "A\n\nB" || len(req[0].Images) != 1 {
		t.Fatalf("%+v", req)
	}
}

func TestClipNeverSplitsACharacter(t *testing.T) { // case enc-1
	emoji := strings.Repeat("👩‍👩‍👧‍👦🇧🇷é", 40) // ZWJ family, flag, e + combining acute
	for n := 1; n < 130; n++ {
		got := Clip(emoji, n)
		if !utf8.ValidString(got) {
			t.Fatalf("n=%d invalid UTF-8", n)
		}
		body := strings.TrimSuffix(got, "…")
		if !strings.HasPrefix(emoji, body) {
			t.Fatalf("n=%d not a prefix", n)
		}
		rest := emoji[len(body):]
		if rest != "" && !(strings.HasPrefix(rest, "👩") || strings.HasPrefix(rest, "🇧") || strings.HasPrefix(rest, "é")) {
			t.Fatalf("n=%d cut inside a character: rest starts %q", n, rest[:8])
		}
	}
	if Clip("short", 60) != "short" || Clip("a\nb", 60) != "a b" {
		t.Fatal("short text must pass unchanged, on one line")
	}
}

func TestValidUTF8MatchesEncodingJSON(t *testing.T) {
	in := "ok\xff\xfe\x00end\xe2\x82"
	got := ValidUTF8(in)
	if got != "ok\uFFFD\uFFFD\x00end\uFFFD\uFFFD" {
		t.Fatalf("%q", got)
	}
	b, _ := AppendJSON(nil, &Message{Role: RoleUser, Content: in})
	var m Message
	if err := m.UnmarshalJSON(b); err != nil || m.Content != got {
		t.Fatalf("json round trip %q vs %q (%v)", m.Content, got, err)
	}
}

func TestUnknownFieldsSurvive(t *testing.T) {
	in := `[{"role":"user","content":"x","future":{"a":[1,"}"]},"meta":{"mode":"chat","later":true}},{"role":"assistant","content":"\"q\\","z":null}]`
	h, err := DecodeList([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(h[0].Extra["future"]) != `{"a":[1,"}"]}` || string(h[0].Meta.Extra["later"]) != "true" || string(h[1].Extra["z"]) != "null" {
		t.Fatalf("extras: %+v %+v", h[0], h[1])
	}
	out, _ := AppendJSON(nil, &h[0])
	if string(out) != `{"role":"user","content":"x","meta":{"mode":"chat","later":true},"future":{"a":[1,"}"]}}` {
		t.Fatalf("re-encoded %s", out)
	}
}

func TestRequestKeepsOnlyTheToolErrorFlag(t *testing.T) {
	h := []Message{
		{Role: RoleUser, Content: "go", Meta: &Meta{Mode: "agent"}},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "f"}, {ID: "b", Name: "f"}, {ID: "c", Name: "f"}}, Meta: &Meta{Mode: "agent"}},
		{Role: RoleTool, ToolCallID: "a", Content: "ok", Meta: &Meta{Mode: "agent"}},
		{Role: RoleTool, ToolCallID: "b", Content: "failed", Meta: &Meta{Mode: "agent", ToolError: true}},
		{Role: RoleTool, ToolCallID: "c", Content: InterruptedResult, Meta: &Meta{Repair: RepairInterrupted}},
	}
	r := Request(h)
	if r[0].Meta != nil || r[1].Meta != nil || r[2].Meta != nil {
		t.Errorf("meta sent: %+v", r)
	}
	if r[3].Meta == nil || !r[3].Meta.ToolError || r[3].Meta.Mode != "" || r[4].Meta == nil || !r[4].Meta.ToolError {
		t.Errorf("failed results lost their flag: %+v %+v", r[3].Meta, r[4].Meta)
	}
	if h[3].Meta.Mode != "agent" {
		t.Error("Request modified its input")
	}
	b, _ := json.Marshal(h[3])
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || !back.Meta.ToolError || back.Meta.Extra != nil {
		t.Errorf("tool_error round trip: %s -> %+v, %v", b, back.Meta, err)
	}
}

func TestRequestKeepsReasoningOfAssistantMessages(t *testing.T) {
	r := &Reasoning{Source: "openai/deepseek-reasoner", Text: "think"}
	h := []Message{
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a", Name: "f"}}, Meta: &Meta{Mode: "agent", Reasoning: r}},
		{Role: RoleTool, ToolCallID: "a", Content: "ok", Meta: &Meta{Reasoning: r}},
	}
	out := Request(h)
	if out[1].Meta == nil || out[1].Meta.Reasoning != r || out[1].Meta.Mode != "" {
		t.Errorf("assistant meta sent: %+v", out[1].Meta)
	}
	if out[2].Meta != nil {
		t.Errorf("reasoning kept on a tool message: %+v", out[2].Meta)
	}
	b, _ := json.Marshal(h[1])
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || back.Meta.Reasoning == nil || back.Meta.Reasoning.Text != r.Text || back.Meta.Reasoning.Source != r.Source || back.Meta.Extra != nil {
		t.Errorf("reasoning round trip: %s -> %+v, %v", b, back.Meta, err)
	}
}

// Clip's fast paths cut where a walk over every grapheme cluster cuts:
// ASCII text, ASCII before a combining mark, mixed scripts.
func TestClipAgreesWithAGraphemeWalk(t *testing.T) {
	ref := func(s string, max int) string {
		g, n, end := uniseg.NewGraphemes(s), 0, 0
		for g.Next() {
			if n == max {
				return s[:end] + "…"
			}
			_, end = g.Positions()
			n++
		}
		return s
	}
	for _, s := range []string{strings.Repeat("turn 0: a long prompt ", 20), "abcde\u0301fgh", "abcd\u0301", "日本語のタイトル and more text", "a👍🏽b👩‍💻c", "turn 0: a long prompt, with an accent: e\u0301 and 👍🏽 after it", "ab\u0301"} {
		for n := 1; n < len(s)+2; n++ {
			if got, want := Clip(s, n), ref(s, n); got != want {
				t.Fatalf("Clip(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
