package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/export")

const goBlock = "package main\n\nfunc main() {\n\tprintln(\"hi\") // `x`\n}\n"

const readmeResult = "# Demo\n\n````markdown\n```go\nfmt.Println(1)\n```\n````\n"

// exp1 is the history of case exp-1: a system prompt, a summary, a user
// message, an assistant message with empty content and tool calls, tool
// results (one with four backticks), an assistant message with a fenced Go
// block and an unanswered prompt.
func exp1() []message.Message {
	return []message.Message{
		{Role: message.RoleSystem, Content: "You are a careful coding assistant.\n\nAnswer in **Markdown**."},
		{Role: message.RoleAssistant, Content: "## Files Read\n- main.go\n\n## Current Task State\nShowing examples.",
			Meta: &message.Meta{IsSummary: true, SummaryOf: 4}},
		{Role: message.RoleUser, Content: "Show hello world in Go & what README.md says <please>."},
		{Role: message.RoleAssistant, ToolCalls: []message.ToolCall{
			{ID: "call_readme_1", Type: "function", Name: "read_file", Arguments: `{"path":"README.md"}`},
			{ID: "call_grep_2", Type: "function", Name: "grep", Arguments: "not json: ``` and ` ticks"},
		}},
		{Role: message.RoleTool, ToolCallID: "call_readme_1", Content: readmeResult},
		{Role: message.RoleTool, ToolCallID: "call_grep_2", Content: "main.go:3:func main() {"},
		{Role: message.RoleAssistant, Content: "Here it is:\n\n```go\n" + goBlock + "```\n\nThe README nests a fence."},
		{Role: message.RoleUser, Content: "And in Rust?", Meta: &message.Meta{Unanswered: true}},
	}
}

// fenced is one fenced code block found by fencedBlocks. body is the text
// between the end of the opening line and the start of the closing line.
type fenced struct {
	char   byte
	length int
	info   string
	body   string
	closed bool
}

// fencedBlocks is a small CommonMark fence tracker, written apart from the
// exporter: lines end at "\n", "\r\n" or "\r"; an opener is up to 3 spaces,
// then 3+ '`' or '~', then an info string (no '`' after a '`' fence); inside
// a block only a line of up to 3 spaces, the same character at least as
// many times, then spaces or tabs closes it.
func fencedBlocks(md string) []fenced {
	var out []fenced
	var cur *fenced
	bodyStart := 0
	for off := 0; off < len(md); {
		end := len(md)
		if i := strings.IndexAny(md[off:], "\r\n"); i >= 0 {
			end = off + i
		}
		next := end
		switch {
		case strings.HasPrefix(md[end:], "\r\n"):
			next += 2
		case end < len(md):
			next++
		}
		line := md[off:end]
		indent := len(line) - len(strings.TrimLeft(line, " "))
		var c byte
		k := 0
		if indent <= 3 && indent < len(line) {
			c = line[indent]
			for indent+k < len(line) && line[indent+k] == c {
				k++
			}
		}
		tail := line[min(len(line), indent+k):]
		switch {
		case k < 3 || (c != '`' && c != '~'):
		case cur == nil && !(c == '`' && strings.Contains(tail, "`")):
			cur = &fenced{char: c, length: k, info: strings.TrimSpace(tail)}
			bodyStart = next
		case cur != nil && c == cur.char && k >= cur.length && strings.Trim(tail, " \t") == "":
			cur.body, cur.closed = md[bodyStart:off], true
			out = append(out, *cur)
			cur = nil
		}
		off = next
	}
	if cur != nil {
		cur.body = md[bodyStart:]
		out = append(out, *cur)
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "export", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

func TestExportMarkdownExp1(t *testing.T) { // case exp-1
	msgs := exp1()
	var b bytes.Buffer
	if err := ExportMarkdown(&b, "demo", msgs); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	golden(t, "exp1.md", b.Bytes())

	want := []fenced{
		{'`', 3, "json", `{"path":"README.md"}` + "\n", true},
		{'`', 4, "", "not json: ``` and ` ticks\n", true},
		{'`', 5, "", readmeResult + "\n", true},
		{'`', 3, "", "main.go:3:func main() {\n", true},
		{'`', 3, "go", goBlock, true},
	}
	if diff := cmp.Diff(want, fencedBlocks(md), cmp.AllowUnexported(fenced{})); diff != "" {
		t.Errorf("fenced blocks (-want +got):\n%s", diff)
	}
	if n := strings.Count(md, "\n## #"); n != len(msgs) {
		t.Errorf("%d sections, want %d", n, len(msgs))
	}
	for _, s := range []string{
		"# Transcript: demo\n\n8 messages\n",
		"## #1 system\n\n<details><summary>System prompt</summary>\n\nYou are",
		"**Markdown**.\n\n</details>\n",
		"## #2 assistant (compaction summary of 4 messages)\n",
		"## #4 assistant\n\n**Tool call** `read_file` (id `call_readme_1`)\n\n```json\n",
		"**Tool call** `grep` (id `call_grep_2`)\n",
		"## #5 tool (result of `call_readme_1`)\n",
		"## #8 user (unanswered)\n\nAnd in Rust?\n",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q", s)
		}
	}
}

func TestExportMarkdownClosesAnOpenFence(t *testing.T) {
	msgs := []message.Message{
		{Role: message.RoleAssistant, Content: "cut off:\n  ~~~~python\nprint(1)\n~~~"},
		{Role: message.RoleUser, Content: "```\nunterminated"},
		{Role: message.RoleTool, ToolCallID: "a", Content: "x"},
	}
	var b bytes.Buffer
	if err := ExportMarkdown(&b, "", msgs); err != nil {
		t.Fatal(err)
	}
	got := fencedBlocks(b.String())
	want := []fenced{
		{'~', 4, "python", "print(1)\n~~~\n", true},
		{'`', 3, "", "unterminated\n", true},
		{'`', 3, "", "x\n", true},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(fenced{})); diff != "" {
		t.Errorf("fenced blocks (-want +got):\n%s\n%s", diff, b.String())
	}
	if !strings.HasPrefix(b.String(), "# Transcript\n\n3 messages\n") {
		t.Errorf("heading without title: %q", b.String())
	}
}

func TestExportJSONLExp1(t *testing.T) { // case exp-1
	msgs := exp1()
	msgs = append(msgs, message.Message{Role: message.RoleUser, Content: "nul\x00 cr\r ls\u2028 <&>",
		Images: []message.Image{message.ParseImageRef("data:image/png;base64,AAAA")}, Meta: &message.Meta{Mode: "coder"}})
	var b bytes.Buffer
	if err := ExportJSONL(&b, msgs); err != nil {
		t.Fatal(err)
	}
	golden(t, "exp1.jsonl", b.Bytes())
	if strings.Contains(b.String(), `\u003c`) || !strings.Contains(b.String(), "<&>") {
		t.Error("content is HTML-escaped")
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(msgs) {
		t.Fatalf("%d lines for %d messages", len(lines), len(msgs))
	}
	for i, line := range lines {
		var got message.Message
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		if pos := string(got.Extra["position"]); pos != strconv.Itoa(i+1) || len(got.Extra) != 1 {
			t.Errorf("line %d: position %q, members beyond a message's %v", i+1, pos, got.Extra)
		}
		got.Extra = nil
		if diff := cmp.Diff(msgs[i], got); diff != "" {
			t.Errorf("line %d does not round-trip (-want +got):\n%s", i+1, diff)
		}
	}
}

type failWriter struct{}

var errDiskFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestExportWriteErrors(t *testing.T) {
	if err := ExportMarkdown(failWriter{}, "x", exp1()); !errors.Is(err, errDiskFull) {
		t.Errorf("ExportMarkdown: %v", err)
	}
	if err := ExportJSONL(failWriter{}, exp1()); !errors.Is(err, errDiskFull) {
		t.Errorf("ExportJSONL: %v", err)
	}
}

// fencesFuzzMaxBytes bounds the four strings of FuzzExportMarkdownFences
// together. The fuzzer shrinks every input it keeps before going on, for
// up to a minute, trying a number of shorter inputs that grows with the
// square of the input's length, each run costing its length, and counts
// none of those runs: one long input kept early stalled a whole run at a
// few hundred executions. A longer input returns at once, with the
// coverage of every other such input, so it is never kept. Fences and
// backtick runs longer than the bound allows show nothing shorter ones do
// not.
const fencesFuzzMaxBytes = 256

// FuzzExportMarkdownFences: whatever the assistant text, tool-call id,
// arguments and tool result, the arguments and result blocks are the last
// two fenced blocks, closed, and their bodies are the input plus "\n".
// The seeds are short and the export is written to memory.
func FuzzExportMarkdownFences(f *testing.F) {
	f.Add("```go\nx\n```", "id`1", `{"a":"`+"````"+`"}`, readmeResult)
	f.Add("~~~\n", "", "", "\r```\r")
	f.Add("   ````\n", "a\nb", "```` ", "``\n```\n````")
	f.Fuzz(func(t *testing.T, text, id, args, result string) {
		if len(text)+len(id)+len(args)+len(result) > fencesFuzzMaxBytes {
			return
		}
		msgs := []message.Message{
			{Role: message.RoleAssistant, Content: text,
				ToolCalls: []message.ToolCall{{ID: id, Name: "run", Arguments: args}}},
			{Role: message.RoleTool, ToolCallID: id, Content: result},
		}
		var b bytes.Buffer
		if err := ExportMarkdown(&b, "fuzz", msgs); err != nil {
			t.Fatal(err)
		}
		blocks := fencedBlocks(b.String())
		if len(blocks) < 2 {
			t.Fatalf("%d fenced blocks:\n%s", len(blocks), b.String())
		}
		for _, bl := range blocks {
			if !bl.closed {
				t.Fatalf("a fenced block is left open:\n%s", b.String())
			}
		}
		gotArgs, gotResult := blocks[len(blocks)-2], blocks[len(blocks)-1]
		if gotArgs.body != args+"\n" || gotResult.body != result+"\n" {
			t.Fatalf("bodies %q, %q; want %q, %q\n%s", gotArgs.body, gotResult.body, args+"\n", result+"\n", b.String())
		}
	})
}

func TestExportMarkdownImagesAndEmpty(t *testing.T) {
	msgs := []message.Message{
		{Role: message.RoleUser, Images: []message.Image{message.ParseImageRef("shots/a b.png"), message.ParseImageRef("data:image/png;base64,AAAA")}},
		{Role: message.RoleAssistant},
	}
	var b bytes.Buffer
	if err := ExportMarkdown(&b, "x\ny", msgs); err != nil {
		t.Fatal(err)
	}
	want := "# Transcript: x y\n\n2 messages\n\n## #1 user\n\n**Image:** `shots/a b.png`\n\n" +
		"**Image:** inline image/png, 26 bytes\n\n## #2 assistant\n\n*(empty)*\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestExportMarkdownClosesAnOpenHTMLBlock(t *testing.T) {
	for _, text := range []string{"before\n<!-- a comment never closed", "  <pre>\nraw", "<SCRIPT>x = 1"} {
		var b strings.Builder
		msgs := []message.Message{{Role: message.RoleAssistant, Content: text}, {Role: message.RoleUser, Content: "after"}}
		if err := ExportMarkdown(&b, "t", msgs); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if unclosedHTML(out[:strings.Index(out, "## #2")]) != "" || !strings.Contains(out, "## #2 user") {
			t.Errorf("%q leaves an HTML block open:\n%s", text, out)
		}
	}
	if unclosedHTML("<!-- closed -->\ntext") != "" || unclosedHTML("a <!-- inline") != "" {
		t.Error("closed or inline comments need no closer")
	}
}
