package command

import (
	"fmt"
	"io"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
)

// replayLineChars clips the one line a replay gives a tool call or result.
const replayLineChars = 100

// Replay prints where a conversation stood for someone coming back to it:
// its last n messages other than system messages (config ResumeReplay), a
// tool call or a tool result as one clipped line, and before them one line
// counting the earlier ones ("… 412 earlier messages (/session transcript
// show 1)"); a prompt whose request failed or was cancelled is followed
// by a line saying so. n <= 0 prints nothing.
// The counting line is in lang (nil: English). reply, when not nil, is
// the writer an assistant message's text is written through, as a turn's
// reply is (Env.Reply: rendered Markdown on a terminal); nil writes it as
// it is, its control characters made visible.
func Replay(lang *i18n.Printer, w io.Writer, h []message.Message, n int, reply func(io.Writer) io.WriteCloser) {
	if n <= 0 {
		return
	}
	var shown []message.Message
	for _, m := range h {
		if m.Role != message.RoleSystem {
			shown = append(shown, m)
		}
	}
	if len(shown) > n {
		lang.Fprintf(w, "… %d earlier messages (/session transcript show 1)\n", len(shown)-n)
		shown = shown[len(shown)-n:]
	}
	for _, m := range shown {
		switch {
		case m.Role == message.RoleTool:
			fmt.Fprintf(w, "  ← %s\n", render.VisibleLine(message.Clip(m.Content, replayLineChars)))
		case m.Role == message.RoleUser:
			fmt.Fprintf(w, "> %s\n", render.Visible(m.Content))
			if m.Meta != nil && m.Meta.Unanswered {
				lang.Fprintf(w, "  (unanswered: its request failed or was cancelled)\n")
			}
		default:
			switch {
			case m.Content == "":
			case reply != nil:
				out := reply(w)
				io.WriteString(out, m.Content)
				out.Close()
			default:
				fmt.Fprintln(w, render.Visible(m.Content))
			}
			for _, c := range m.ToolCalls {
				fmt.Fprintf(w, "  → %s\n", render.VisibleLine(message.Clip(c.Name+" "+c.Arguments, replayLineChars)))
			}
		}
	}
}
