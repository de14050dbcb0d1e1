package render

import (
	"io"
	"strings"

	"charm.land/lipgloss/v2"
)

// Styles of the REPL's own lines.
var (
	promptStyle  = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("10"))
	errorStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	warningStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	noticeStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("8"))
)

// Prompt returns the REPL's prompt in its colour: bold green, the trailing
// "> " included.
func Prompt(s string) string { return promptStyle.Render(s) }

// Labelled returns a writer that colours each write to w by the label it
// starts with, as chatcli writes its messages on standard error: "error: "
// red, "warning: " yellow, "note: " grey, and so their Portuguese labels
// ("erro: ", "aviso: ", "nota: ", i18n's catalog); other writes pass
// unchanged.
// The line feed ending a write stays outside the colour.
func Labelled(w io.Writer) io.Writer { return labelled{w} }

type labelled struct{ w io.Writer }

func (l labelled) Write(p []byte) (int, error) {
	s := string(p)
	var st *lipgloss.Style
	switch {
	case strings.HasPrefix(s, "error: "), strings.HasPrefix(s, "erro: "):
		st = &errorStyle
	case strings.HasPrefix(s, "warning: "), strings.HasPrefix(s, "aviso: "):
		st = &warningStyle
	case strings.HasPrefix(s, "note: "), strings.HasPrefix(s, "nota: "):
		st = &noticeStyle
	}
	if st == nil {
		return l.w.Write(p)
	}
	body := strings.TrimSuffix(s, "\n")
	if _, err := io.WriteString(l.w, st.Render(body)+s[len(body):]); err != nil {
		return 0, err
	}
	return len(p), nil
}
