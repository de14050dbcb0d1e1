package editor

import (
	"errors"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatcli/chatcli/internal/i18n"
)

// doubleEscWindow is the longest gap between two Esc presses on an empty
// line that still counts as a double Esc.
const doubleEscWindow = 500 * time.Millisecond

// typeAheadWindow is how soon after an editor starts a line feed (Ctrl+J)
// still counts as Enter: a key typed ahead while the terminal was not in
// raw mode arrives as a line feed, in the burst read at the start, long
// before a person could press Ctrl+J.
const typeAheadWindow = 200 * time.Millisecond

// maxInputRows is the most rows the input takes on screen; a longer input
// scrolls.
const maxInputRows = 20

// model is the bubbletea model behind one ReadLine: a textarea plus history
// walking and search, Tab completion, folded pastes and the Esc Esc
// gesture.
type model struct {
	input    textarea.Model
	prompt   string
	history  []string // oldest first
	histPos  int      // index into history; len(history) is the draft
	draft    string   // the input being typed before walking the history
	complete func(string) []string
	note     func(string) string // shown beside a listed candidate; may be nil
	lang     *i18n.Printer       // the labels' language; nil is English
	cands    []string            // completion candidates on show; nil when none
	candPos  int                 // selected candidate; -1 before the first cycle
	folds    []fold              // folded pastes, each shown as its label
	search   *search             // the Ctrl+R search in progress; nil when none
	now      func() time.Time
	started  time.Time // when the editor started (see typeAheadWindow)
	lastEsc  time.Time // when Esc was pressed on an empty line; zero if not
	width    int       // terminal width in cells; 0 when unknown

	done    bool            // the input is finished
	value   string          // the finished input, folds expanded
	err     error           // why reading ended without input, if it did
	pending []tea.Msg       // keys and pastes received after the input finished
	onEnd   func()          // called when the input finishes (handover.end)
	gone    <-chan struct{} // closed once the program has exited (handover.gone)
}

// newModel returns a focused model showing prompt.
func newModel(prompt string, history []string, complete func(string) []string, now func() time.Time) model {
	in := textarea.New()
	in.ShowLineNumbers = false
	in.EndOfBufferCharacter = ' '
	in.DynamicHeight = true
	in.MinHeight, in.MaxHeight = 1, maxInputRows
	in.MaxContentHeight = 1 << 20 // no practical limit; long pastes fold
	width := ansi.StringWidth(prompt)
	in.SetPromptFunc(width, func(p textarea.PromptInfo) string {
		if p.LineNumber == 0 {
			return prompt
		}
		return strings.Repeat(" ", width)
	})
	plain := lipgloss.NewStyle()
	styles := textarea.DefaultDarkStyles()
	for _, s := range []*textarea.StyleState{&styles.Focused, &styles.Blurred} {
		s.Base, s.Text, s.CursorLine, s.Prompt, s.EndOfBuffer, s.Placeholder = plain, plain, plain, plain, plain, plain
	}
	styles.Cursor.Blink = false
	in.SetStyles(styles)
	// Enter, Up, Down and Ctrl+V belong to submitting, the history and the
	// terminal's own paste below.
	off := key.NewBinding(key.WithDisabled())
	in.KeyMap.InsertNewline, in.KeyMap.Paste = off, off
	in.SetWidth(fallbackWidth)
	in.Focus()
	t := now()
	return model{
		input:    in,
		prompt:   prompt,
		history:  history,
		histPos:  len(history),
		complete: complete,
		now:      now,
		started:  t,
		candPos:  -1,
	}
}

// replay feeds msgs (keys left over from the previous line) to m.
func (m model) replay(msgs []tea.Msg) model {
	for _, msg := range msgs {
		tm, _ := m.Update(msg)
		m = tm.(model)
	}
	return m
}

// Init implements tea.Model. An input already finished by replayed keys is
// drawn once and the program exits.
func (m model) Init() tea.Cmd {
	if m.done {
		return quitLate(m.gone)
	}
	return nil
}

// Update implements tea.Model.
func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.done {
		switch {
		case isEndMark(msg): // every key typed before the end has come
			return m, tea.Quit
		case isKey(msg):
			m.pending = append(m.pending, msg)
		}
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
		m.input.SetWidth(max(2, msg.Width))
		m.input.MaxHeight = max(1, min(maxInputRows, msg.Height-2))
		return m, nil
	case tea.PasteMsg:
		m.cands, m.candPos, m.lastEsc = nil, -1, time.Time{}
		if m.search != nil {
			m.endSearch(true)
		}
		m.paste(msg.Content)
		return m, nil
	case tea.KeyPressMsg:
		if m.search != nil {
			return m.searchKey(msg)
		}
		return m.key(msg)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// key handles one key press.
func (m model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := msg.String()
	if k != "tab" && k != "shift+tab" {
		m.cands, m.candPos = nil, -1
	}
	if k != "esc" {
		m.lastEsc = time.Time{}
	}
	switch k {
	case "enter":
		return m.finish(m.expand(m.input.Value()), nil)
	case "ctrl+j":
		if m.now().Sub(m.started) <= typeAheadWindow {
			return m.finish(m.expand(m.input.Value()), nil)
		}
		m.input.InsertRune('\n')
	case "alt+enter", "shift+enter", "ctrl+enter":
		m.input.InsertRune('\n')
	case "ctrl+c":
		return m.finish(m.input.Value(), ErrInterrupt)
	case "ctrl+d":
		if m.input.Value() == "" {
			return m.finish("", io.EOF)
		}
		m.forward(tea.KeyDelete, clusterAfter(m.line(), m.input.Column()))
	case "esc", "alt+esc":
		return m.escape(k == "alt+esc")
	case "up", "ctrl+p":
		if m.input.Line() > 0 || m.input.LineInfo().RowOffset > 0 {
			return m.pass(msg)
		}
		m.historyPrev()
	case "down", "ctrl+n":
		if m.input.Line() < m.input.LineCount()-1 || m.input.LineInfo().RowOffset < m.input.LineInfo().Height-1 {
			return m.pass(msg)
		}
		m.historyNext()
	case "ctrl+r":
		m.startSearch()
	case "tab":
		m.tab(false)
	case "shift+tab":
		m.tab(true)
	case "backspace", "ctrl+h":
		m.deleteBackward()
	case "delete":
		m.forward(tea.KeyDelete, clusterAfter(m.line(), m.input.Column()))
	case "left", "ctrl+b":
		m.forward(tea.KeyLeft, clusterBefore(m.line(), m.input.Column()))
	case "right", "ctrl+f":
		m.forward(tea.KeyRight, clusterAfter(m.line(), m.input.Column()))
	default:
		return m.pass(msg)
	}
	return m, nil
}

// pass hands a key to the textarea.
func (m model) pass(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// forward presses code n times in the textarea (at least once, so that at
// the edge of a line the key joins or crosses lines), which moves or
// deletes one whole grapheme cluster of n runes.
func (m *model) forward(code rune, n int) {
	for range max(n, 1) {
		m.input, _ = m.input.Update(tea.KeyPressMsg{Code: code})
	}
}

// deleteBackward removes the grapheme cluster before the cursor, or a
// whole fold label the cursor ends.
func (m *model) deleteBackward() {
	r, col := m.line(), m.input.Column()
	if n := m.foldBefore(string(r[:col])); n > 0 {
		m.forward(tea.KeyBackspace, n)
		return
	}
	m.forward(tea.KeyBackspace, clusterBefore(r, col))
}

// line returns the logical line under the cursor as runes, the unit of
// textarea columns.
func (m *model) line() []rune {
	lines := strings.Split(m.input.Value(), "\n")
	if row := m.input.Line(); row < len(lines) {
		return []rune(lines[row])
	}
	return nil
}

// finish ends the input with value and err.
func (m model) finish(value string, err error) (tea.Model, tea.Cmd) {
	m.done, m.value, m.err = true, value, err
	m.cands, m.search = nil, nil
	if m.onEnd != nil {
		m.onEnd() // what is read from now on is the next line's
	}
	return m, quitLate(m.gone)
}

// escape handles Esc; double is true for two Esc bytes read at once.
// Only an empty input arms or fires the double Esc.
func (m model) escape(double bool) (tea.Model, tea.Cmd) {
	if m.input.Value() != "" {
		m.lastEsc = time.Time{}
		return m, nil
	}
	now := m.now()
	if double || (!m.lastEsc.IsZero() && now.Sub(m.lastEsc) <= doubleEscWindow) {
		return m.finish("", ErrDoubleEsc)
	}
	m.lastEsc = now
	return m, nil
}

// historyPrev shows the previous (older) history entry.
func (m *model) historyPrev() {
	if m.histPos == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.expand(m.input.Value())
	}
	m.histPos--
	m.setLine(m.history[m.histPos])
}

// historyNext shows the next (newer) history entry, then the draft.
func (m *model) historyNext() {
	if m.histPos >= len(m.history) {
		return
	}
	m.histPos++
	if m.histPos == len(m.history) {
		m.setLine(m.draft)
		return
	}
	m.setLine(m.history[m.histPos])
}

// setLine replaces the input with s (folded as a paste would be) and puts
// the cursor at its end.
func (m *model) setLine(s string) {
	m.input.Reset()
	m.folds = nil
	m.insert(s)
	m.input.MoveToEnd()
}

// View implements tea.Model. A finished input stays on screen in full
// (folds as their labels, each line wrapped at the terminal width)
// followed by a newline, so what is printed next starts on a line of its
// own.
func (m model) View() tea.View {
	if m.done {
		return tea.NewView(m.finishedView())
	}
	var v string
	if m.search != nil {
		v = m.searchView()
	} else {
		v = m.input.View()
	}
	if len(m.cands) > 0 {
		v += "\n" + m.candidatesView()
	}
	return tea.NewView(v)
}

// finishedView is the input as it stays on screen once finished: each
// line after the first indented under the prompt, "^C" after the last one
// when it was interrupted.
func (m model) finishedView() string {
	lines := strings.Split(m.input.Value(), "\n")
	if errors.Is(m.err, ErrInterrupt) {
		lines[len(lines)-1] += "^C"
	}
	pad := strings.Repeat(" ", ansi.StringWidth(m.prompt))
	var b strings.Builder
	for i, l := range lines {
		s := pad + l
		if i == 0 {
			s = m.prompt + l
		}
		if m.width > 0 {
			s = ansi.Hardwrap(s, m.width, true)
		}
		b.WriteString(s + "\n")
	}
	return b.String()
}
