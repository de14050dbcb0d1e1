package command

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// listTitleChars is the title column's width in characters.
const listTitleChars = 60

// WriteList prints session headers as a table: name (marked * when bound),
// title, message count and last update in local time. Unreadable files get
// a row saying why.
func WriteList(w io.Writer, list []session.Header, bound string) {
	if len(list) == 0 {
		fmt.Fprintln(w, "No saved sessions. /session save NAME saves this one.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tMESSAGES\tUPDATED\tTITLE")
	for _, h := range list {
		name := h.Name
		if name == bound {
			name += " *"
		}
		if h.Err != nil {
			fmt.Fprintf(tw, "%s\t-\t-\t(unreadable: %s)\n", name, message.Clip(h.Err.Error(), 120))
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", name, h.Messages, h.UpdatedAt.Local().Format("2006-01-02 15:04"), message.Clip(h.Title, listTitleChars))
	}
	tw.Flush()
}

// WriteTranscript prints a history for reading: one block per message with
// its position and role; tool calls with their name and arguments.
func WriteTranscript(w io.Writer, h []message.Message) { writeMessages(w, h, 1) }

// WriteSession prints a stored session: a header line with its name,
// message count and update time, then its messages (WriteTranscript).
func WriteSession(w io.Writer, name string, s *session.Session) {
	fmt.Fprintf(w, "Session %s · %d messages · updated %s\n", name, len(s.History), s.UpdatedAt.Local().Format("2006-01-02 15:04"))
	WriteTranscript(w, s.History)
}

// writeMessages prints messages numbered from first.
func writeMessages(w io.Writer, h []message.Message, first int) {
	for k, m := range h {
		i := first + k - 1
		label := string(m.Role)
		if m.Role == message.RoleTool {
			label += " (result of " + m.ToolCallID + ")"
		}
		if m.Meta != nil && m.Meta.Unanswered {
			label += " (unanswered)"
		}
		fmt.Fprintf(w, "\n#%d %s\n", i+1, label)
		if m.Content != "" {
			fmt.Fprintln(w, m.Content)
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(w, "→ %s(%s) [%s]\n", c.Name, c.Arguments, c.ID)
		}
	}
}
