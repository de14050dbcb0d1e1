package journal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
)

// ExportMarkdown writes msgs as Markdown (CommonMark) to w. title is the
// session name (may be ""). Layout, every part separated by one blank line:
//
//	# Transcript: <title>              ("# Transcript" when title is "")
//	<N> messages                       ("1 message")
//	## #<N> <role>[ (<label>)…]        one section per message, N 1-based
//	<body>
//
// Labels: "(result of `<tool_call_id>`)" on tool messages, "(compaction
// summary of <K> messages)" (or "(compaction summary)") when meta.is_summary,
// "(unanswered)" when meta.unanswered, "(repaired: <kind>)" when meta.repair.
// The body, in this order:
//
//   - a system message (not a summary): its content between
//     "<details><summary>System prompt</summary>" and "</details>", each on
//     a line of its own with a blank line before and after the content;
//   - a tool message: its content in a fenced code block without info
//     string;
//   - any other message: its content as-is (it is Markdown already); when
//     it leaves a fenced code block open, a line closing that block (same
//     indentation, character and length as the opener) is added after it;
//   - for every tool call: a line "**Tool call** `<name>` (id `<id>`)" and
//     the arguments in a fenced code block, info string "json" when the
//     arguments are valid JSON;
//   - for every image: "**Image:** `<reference>`", or for a data URL
//     "**Image:** inline <media type>, <n> bytes";
//   - "*(empty)*" when none of the above wrote anything.
//
// A fenced block is "\n"-terminated lines: the fence (backticks, one more
// than the longest run of backticks in the content, at least 3) and info
// string, the content, the fence again. The content between the opening
// line and the closing fence is the original text plus one "\n", so it
// never closes the block early and can be extracted exactly. Names, ids and
// references are code spans on one line (line breaks become spaces).
func ExportMarkdown(w io.Writer, title string, msgs []message.Message) error {
	b := bufio.NewWriter(w)
	b.WriteString("# Transcript")
	if title != "" {
		b.WriteString(": " + flatten(title))
	}
	fmt.Fprintf(b, "\n\n%s\n", plural(len(msgs), "message"))
	for i := range msgs {
		writeSection(b, i+1, &msgs[i])
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("journal: export markdown: %w", err)
	}
	return nil
}

// writeSection writes the "## #pos" section of m (see ExportMarkdown).
func writeSection(b *bufio.Writer, pos int, m *message.Message) {
	meta := m.Meta
	if meta == nil {
		meta = &message.Meta{}
	}
	fmt.Fprintf(b, "\n## #%d %s", pos, flatten(string(m.Role)))
	if m.Role == message.RoleTool {
		b.WriteString(" (result of " + codeSpan(m.ToolCallID) + ")")
	}
	switch {
	case meta.IsSummary && meta.SummaryOf > 0:
		fmt.Fprintf(b, " (compaction summary of %s)", plural(meta.SummaryOf, "message"))
	case meta.IsSummary:
		b.WriteString(" (compaction summary)")
	}
	if meta.Unanswered {
		b.WriteString(" (unanswered)")
	}
	if meta.Repair != "" {
		b.WriteString(" (repaired: " + flatten(meta.Repair) + ")")
	}
	b.WriteString("\n")
	wrote := true
	switch {
	case m.Role == message.RoleSystem && !meta.IsSummary:
		b.WriteString("\n<details><summary>System prompt</summary>\n\n")
		writeText(b, m.Content)
		b.WriteString("\n</details>\n")
	case m.Role == message.RoleTool:
		writeFenced(b, "", m.Content)
	case m.Content != "":
		b.WriteString("\n")
		writeText(b, m.Content)
	default:
		wrote = false
	}
	for _, tc := range m.ToolCalls {
		fmt.Fprintf(b, "\n**Tool call** %s (id %s)\n", codeSpan(tc.Name), codeSpan(tc.ID))
		info := ""
		if json.Valid([]byte(tc.Arguments)) {
			info = "json"
		}
		writeFenced(b, info, tc.Arguments)
	}
	for _, img := range m.Images {
		b.WriteString("\n**Image:** " + imageRef(img) + "\n")
	}
	if !wrote && len(m.ToolCalls) == 0 && len(m.Images) == 0 {
		b.WriteString("\n*(empty)*\n")
	}
}

// writeText writes Markdown text as-is, ends it with a line break and
// closes a fenced code block it leaves open.
func writeText(b *bufio.Writer, text string) {
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	if closer := unclosedFence(text); closer != "" {
		b.WriteString(closer + "\n")
	} else if closer := unclosedHTML(text); closer != "" {
		b.WriteString(closer + "\n")
	}
}

// writeFenced writes content as a fenced code block whose fence is longer
// than any run of backticks in content.
func writeFenced(b *bufio.Writer, info, content string) {
	longest, run := 0, 0
	for i := 0; i < len(content); i++ {
		if content[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString("\n" + fence + info + "\n" + content + "\n" + fence + "\n")
}

// unclosedFence returns a line closing the fenced code block that text
// leaves open (CommonMark rules, containers ignored), or "" when it leaves
// none open. Lines end at "\n", "\r\n" or "\r", as in CommonMark.
func unclosedFence(text string) string {
	var opener string
	var ch byte
	n := 0
	for rest := text; rest != ""; {
		line := rest
		if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		indent, c, k, tail := fenceRun(line)
		switch {
		case k == 0:
		case n == 0 && !(c == '`' && strings.ContainsRune(tail, '`')):
			opener, ch, n = line[:indent+k], c, k
		case n > 0 && c == ch && k >= n && strings.Trim(tail, " \t") == "":
			n = 0
		}
	}
	if n == 0 {
		return ""
	}
	return opener
}

// fenceRun reports a fence at the start of line: up to 3 spaces of
// indentation, then 3 or more '`' or '~'. k is 0 when there is none.
func fenceRun(line string) (indent int, c byte, k int, tail string) {
	for indent < len(line) && indent < 4 && line[indent] == ' ' {
		indent++
	}
	if indent > 3 || indent == len(line) || (line[indent] != '`' && line[indent] != '~') {
		return 0, 0, 0, ""
	}
	c = line[indent]
	for indent+k < len(line) && line[indent+k] == c {
		k++
	}
	if k < 3 {
		return 0, 0, 0, ""
	}
	return indent, c, k, line[indent+k:]
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

// flatten puts s on one line.
func flatten(s string) string { return lineBreaks.Replace(s) }

// codeSpan renders s as an inline code span that shows s exactly (on one
// line): its delimiter is a backtick run that does not occur in s.
func codeSpan(s string) string {
	s = flatten(s)
	if s == "" {
		return "*(none)*"
	}
	runs := map[int]bool{}
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		runs[j-i] = true
		i = max(j, i+1)
	}
	n := 1
	for runs[n] {
		n++
	}
	d := strings.Repeat("`", n)
	if strings.ContainsAny(s[:1]+s[len(s)-1:], "` ") {
		return d + " " + s + " " + d
	}
	return d + s + d
}

// imageRef describes an attached image: a code span for a reference, the
// media type and size for a data URL.
func imageRef(img message.Image) string {
	ref := img.Ref()
	if rest, ok := strings.CutPrefix(ref, "data:"); ok {
		mt, _, _ := strings.Cut(rest, ",")
		mt, _, _ = strings.Cut(mt, ";")
		ref = fmt.Sprintf("inline %s, %s", flatten(mt), plural(len(ref), "byte"))
	} else {
		ref = codeSpan(ref)
	}
	if img.FileName != "" {
		ref = codeSpan(img.FileName) + " (" + ref + ")"
	}
	return ref
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// exportLine is one line of ExportJSONL.
type exportLine struct {
	Position   int                `json:"position"`
	Role       message.Role       `json:"role"`
	Content    string             `json:"content"`
	ToolCalls  []message.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string             `json:"tool_call_id,omitempty"`
	Images     []message.Image    `json:"images,omitempty"`
	Meta       *message.Meta      `json:"meta,omitempty"`
}

// ExportJSONL writes one JSON object per message per line ("\n"-terminated)
// to w, in order:
//
//	{"position":1,"role":"assistant","content":"…",
//	 "tool_calls":[{"id":"call_1","type":"function","name":"read_file","arguments":{…}}],
//	 "tool_call_id":"…","images":[{"media_type":"image/png","data":"…"}],"meta":{"is_summary":true,…}}
//
// position is 1-based; tool_calls, tool_call_id, images and meta are
// omitted when empty (and a tool call's type when empty), exactly as in
// the session format. Strings are not HTML-escaped; every control
// character, U+2028 and U+2029 is escaped, so each line is valid JSON and
// content round-trips (NUL and "\r" included).
func ExportJSONL(w io.Writer, msgs []message.Message) error {
	b := bufio.NewWriter(w)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	for i := range msgs {
		m := &msgs[i]
		line := exportLine{i + 1, m.Role, m.Content, m.ToolCalls, m.ToolCallID, m.Images, m.Meta}
		if err := enc.Encode(&line); err != nil {
			return fmt.Errorf("journal: export jsonl: message #%d: %w", i+1, err)
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("journal: export jsonl: %w", err)
	}
	return nil
}
