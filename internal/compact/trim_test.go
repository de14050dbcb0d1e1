package compact

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rivo/uniseg"

	"github.com/chatcli/chatcli/internal/message"
)

func TestLevel1AloneWhenItReachesTheTarget(t *testing.T) {
	fileA := long("package a", 3000)
	build := long("FAIL\tgithub.com/x/y [build failed]", 2000)
	huge := strings.Repeat("line with 👩‍👩‍👧 family and 🇵🇹 flag\n", 3000)
	h := []message.Message{
		sys("s"), user("fix the build"),
		asst("<reasoning>" + long("secret plan", 5000) + "</reasoning>\n\nI will read a.go first."),
		calls(tc("1", "read_file", `{"path":"a.go"}`)), res("1", fileA),
		calls(tc("2", "run_command", `{"command":"go build"}`)), res("2", build),
		calls(tc("3", "run_command", `{"command":"go build"}`)), res("3", build),
		calls(tc("4", "read_file", `{"path":"./a.go"}`), tc("5", "read_file", `{"path":"a.go","offset":100}`)),
		res("4", fileA+"\n// edited"), res("5", "partial "+fileA),
		calls(tc("6", "run_command", `{"command":"go test -v"}`)), res("6", huge),
		asst("Fixed.   \n\n\n\n\nAll good."),
		user("thanks, one more: run the tests"), // the latest request, kept verbatim
		calls(tc("7", "run_command", `{"command":"go test"}`)), res("7", "ok"), asst("green"),
	}
	snapshot := deepCopy(h)
	var trimEvent Event
	r, err := Compact(context.Background(), h, Options{Keep: 4, TargetBytes: Size(h) - 50000,
		Progress: func(e Event) {
			if e.Phase == "trim" {
				trimEvent = e
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, h, r, 4)
	if d := cmp.Diff(snapshot, h); d != "" {
		t.Fatalf("input modified:\n%s", d)
	}
	out := r.History
	if r.Level != 1 || len(out) != len(h) {
		t.Fatalf("level %d, %d messages", r.Level, len(out))
	}
	want := regexp.MustCompile(`^Trim: 19 msgs, 1\d\d\.\d KB → \d+\.\d KB \(1 reasoning block, 1 duplicate result, 1 repeated read, 1 output shortened, 1 message squeezed\)$`)
	if !want.MatchString(trimEvent.Text) {
		t.Errorf("trim event %q", trimEvent.Text)
	}
	if out[2].Content != "I will read a.go first." {
		t.Errorf("reasoning not stripped: %q", message.Clip(out[2].Content, 80))
	}
	if !strings.HasPrefix(out[4].Content, "[superseded: `a.go` was read again later;") {
		t.Errorf("older read of a.go: %q", message.Clip(out[4].Content, 80))
	}
	if !strings.HasPrefix(out[6].Content, "[duplicate: this run_command output appears again later;") || out[8].Content != build {
		t.Errorf("duplicate results: %q / %q", message.Clip(out[6].Content, 80), message.Clip(out[8].Content, 80))
	}
	if out[10].Content != h[10].Content || out[11].Content != h[11].Content {
		t.Error("the latest read, and a read with other arguments, must stay")
	}
	if out[14].Content != "Fixed.\n\nAll good." {
		t.Errorf("squeeze: %q", out[14].Content)
	}
	checkHeadTail(t, huge, out[13].Content)
	for i := range h {
		if h[i].Role != out[i].Role || h[i].ToolCallID != out[i].ToolCallID || !cmp.Equal(h[i].ToolCalls, out[i].ToolCalls) {
			t.Fatalf("message %d lost its role, call or result", i)
		}
	}
}

// checkHeadTail checks that short is orig shortened to head + marker + tail,
// cut between characters, and that the marker counts what was cut.
func checkHeadTail(t *testing.T, orig, short string) {
	t.Helper()
	m := regexp.MustCompile(`\[… (\d+) bytes \((\d+) lines\) cut …\]\n`).FindStringSubmatchIndex(short)
	if m == nil || !utf8.ValidString(short) || len(short) > hugeOutputBytes {
		t.Fatalf("not shortened with a marker: %d bytes", len(short))
	}
	head, tail := short[:m[0]], short[m[1]:]
	if !strings.HasPrefix(orig, head) {
		head = strings.TrimSuffix(head, "\n") // the separator before the marker
	}
	var cutBytes, cutLines int
	fmt.Sscan(short[m[2]:m[3]], &cutBytes)
	fmt.Sscan(short[m[4]:m[5]], &cutLines)
	if !strings.HasPrefix(orig, head) || !strings.HasSuffix(orig, tail) || len(head)+cutBytes+len(tail) != len(orig) {
		t.Fatalf("head %d + cut %d + tail %d != %d", len(head), cutBytes, len(tail), len(orig))
	}
	if cut := orig[len(head) : len(orig)-len(tail)]; strings.Count(cut, "\n") != cutLines {
		t.Errorf("marker says %d lines, cut has %d", cutLines, strings.Count(cut, "\n"))
	}
	n := uniseg.GraphemeClusterCount
	if n(head)+n(orig[len(head):]) != n(orig) || n(orig[:len(orig)-len(tail)])+n(tail) != n(orig) {
		t.Fatal("a cut splits a character")
	}
}

func TestHeadTailCutsBetweenCharacters(t *testing.T) {
	for name, s := range map[string]string{
		"family emoji, no newline": strings.Repeat("👩‍👩‍👧‍👦", 3000),
		"flags, no newline":        strings.Repeat("🇵🇹🇧🇷", 2000),
		"combining marks":          strings.Repeat("e\u0301\u0302a\u0308", 4000),
		"lines":                    strings.Repeat("a line of text, ünïcödé\n", 1000),
	} {
		t.Run(name, func(t *testing.T) {
			short, ok := headTail(s, headBytes, tailBytes)
			if !ok {
				t.Fatal("not shortened")
			}
			checkHeadTail(t, s, short)
			if name == "lines" && !strings.HasSuffix(short[:strings.Index(short, "[…")], "\n") {
				t.Error("with lines, the head should end at a line end")
			}
		})
	}
}

func TestShortDuplicatesKeepTheirText(t *testing.T) {
	h := []message.Message{user("go"),
		calls(tc("1", "run_command", `{"command":"true"}`)), res("1", "ok"),
		calls(tc("2", "run_command", `{"command":"true"}`)), res("2", "ok"),
		asst("done"), user("again")}
	out, st := trim(h, makePlan(h, 1))
	if st.changed() || &out[0] != &h[0] {
		t.Fatalf("a marker longer than the text it replaces: %+v", st)
	}
}

func TestStripReasoning(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<thinking>a</thinking>\nanswer", "answer"},
		{"x <think>a</think> y <reasoning>b\nc</reasoning>\n\nz", "x y z"},
		{"<thinking>never closed\nanswer", "<thinking>never closed\nanswer"},
		{"<thinking>a</thinking>one<thinking>b</thinking>two", "onetwo"},
		{"no tags", "no tags"},
	}
	for _, c := range cases {
		if got, _ := stripReasoning(c.in); got != c.want {
			t.Errorf("stripReasoning(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	m := asst("<think>" + long("x", 100) + "</think>")
	var st trimStats
	if got := trimText(m, &st); got != "[reasoning removed]" || st.reasoning != 1 {
		t.Errorf("an all-reasoning reply: %q %+v", got, st)
	}
}

func TestSqueeze(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\n\n\n\nb", "a\n\nb"},
		{"a  \n \t\n\n  indented\t\n", "a\n\n  indented\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\n\nb\n\n", "a\n\nb\n\n"},
		{"\n\n\n\nx   ", "\n\nx"},
		{"untouched\n\nlines", "untouched\n\nlines"},
	}
	for _, c := range cases {
		if got := squeeze(c.in); got != c.want {
			t.Errorf("squeeze(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCleanTerminal(t *testing.T) {
	in := "\x1b[32mPASS\x1b[0m ok\n 10%\r 50%\r100%\r\ndone\x1b]0;title\x07"
	if got, want := cleanTerminal(in), "PASS ok\n100%\ndone"; got != want {
		t.Errorf("cleanTerminal = %q, want %q", got, want)
	}
}
