package editor

import (
	"errors"
	"io"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// doubleEscWindow is the longest gap between two Esc presses on an empty
// line that still counts as a double Esc.
const doubleEscWindow = 500 * time.Millisecond

// quitDelay is how long a finished editor keeps receiving input before it
// exits, so that keys already read past the end of the line (typed ahead
// while output was printing, or sent in one burst) are kept for the next
// line instead of lost.
const quitDelay = 20 * time.Millisecond

// model is the bubbletea model behind one ReadLine: a textinput plus history
// walking, Tab completion and the Esc Esc gesture.
type model struct {
	input    textinput.Model
	history  []string // oldest first
	histPos  int      // index into history; len(history) is the draft
	draft    string   // the line being typed before walking the history
	complete func(string) []string
	cands    []string // completion candidates on show; nil when none
	candPos  int      // selected candidate; -1 before the first cycle
	now      func() time.Time
	lastEsc  time.Time // when Esc was pressed on an empty line; zero if not
	width    int       // terminal width in cells; 0 when unknown

	done    bool      // the line is finished
	value   string    // the finished line
	err     error     // why reading ended without a line, if it did
	pending []tea.Msg // keys and pastes received after the line finished
}

// newModel returns a focused model showing prompt.
func newModel(prompt string, history []string, complete func(string) []string, now func() time.Time) model {
	in := textinput.New()
	in.Prompt = prompt
	styles := textinput.DefaultDarkStyles()
	styles.Focused.Prompt = lipgloss.NewStyle()
	styles.Cursor.Blink = false
	in.SetStyles(styles)
	// Up, Down and Tab belong to the history and completion below.
	off := key.NewBinding(key.WithDisabled())
	in.KeyMap.AcceptSuggestion, in.KeyMap.NextSuggestion, in.KeyMap.PrevSuggestion = off, off, off
	in.Focus()
	return model{
		input:    in,
		history:  history,
		histPos:  len(history),
		complete: complete,
		now:      now,
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

// Init implements tea.Model. A line already finished by replayed keys is
// drawn once and the program exits.
func (m model) Init() tea.Cmd {
	if m.done {
		return quitSoon
	}
	return nil
}

// quitSoon ends the program after quitDelay.
func quitSoon() tea.Msg {
	time.Sleep(quitDelay)
	return tea.QuitMsg{}
}

// Update implements tea.Model.
func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.done {
		switch msg.(type) {
		case tea.KeyPressMsg, tea.PasteMsg:
			m.pending = append(m.pending, msg)
		}
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
		m.input.SetWidth(max(1, msg.Width-ansi.StringWidth(m.input.Prompt)-1))
		m.input.SetCursor(m.input.Position()) // re-fits the visible part
		return m, nil
	case tea.KeyPressMsg:
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
	case "enter", "ctrl+j":
		// Ctrl+J is a line feed: what Enter becomes when typed ahead while
		// the terminal was not in raw mode.
		return m.finish(m.input.Value(), nil)
	case "ctrl+c":
		return m.finish(m.input.Value(), ErrInterrupt)
	case "ctrl+d":
		if m.input.Value() == "" {
			return m.finish("", io.EOF)
		}
		m.deleteForward()
	case "esc", "alt+esc":
		return m.escape(k == "alt+esc")
	case "up", "ctrl+p":
		m.historyPrev()
	case "down", "ctrl+n":
		m.historyNext()
	case "tab":
		m.tab(false)
	case "shift+tab":
		m.tab(true)
	case "backspace", "ctrl+h":
		m.deleteBackward()
	case "delete":
		m.deleteForward()
	case "left", "ctrl+b":
		m.input.SetCursor(m.input.Position() - clusterBefore(m.runes(), m.input.Position()))
	case "right", "ctrl+f":
		m.input.SetCursor(m.input.Position() + clusterAfter(m.runes(), m.input.Position()))
	default:
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// finish ends the line with value and err.
func (m model) finish(value string, err error) (tea.Model, tea.Cmd) {
	m.done, m.value, m.err = true, value, err
	m.cands = nil
	return m, quitSoon
}

// escape handles Esc; double is true for two Esc bytes read at once.
// Only an empty line arms or fires the double Esc.
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
		m.draft = m.input.Value()
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

// setLine replaces the line and puts the cursor at its end.
func (m *model) setLine(s string) {
	m.input.SetValue(s)
	m.input.CursorEnd()
}

// runes returns the line as runes, the unit of textinput positions.
func (m *model) runes() []rune { return []rune(m.input.Value()) }

// deleteBackward removes the grapheme cluster before the cursor.
func (m *model) deleteBackward() {
	r, pos := m.runes(), m.input.Position()
	n := clusterBefore(r, pos)
	if n == 0 {
		return
	}
	m.input.SetValue(string(r[:pos-n]) + string(r[pos:]))
	m.input.SetCursor(pos - n)
}

// deleteForward removes the grapheme cluster under the cursor.
func (m *model) deleteForward() {
	r, pos := m.runes(), m.input.Position()
	n := clusterAfter(r, pos)
	if n == 0 {
		return
	}
	m.input.SetValue(string(r[:pos]) + string(r[pos+n:]))
	m.input.SetCursor(pos)
}

// View implements tea.Model. A finished line stays on screen in full
// (wrapped at the terminal width) followed by a newline, so what is printed
// next starts on a line of its own.
func (m model) View() tea.View {
	if m.done {
		s := m.input.Prompt + m.value
		if errors.Is(m.err, ErrInterrupt) {
			s += "^C"
		}
		if m.width > 0 {
			s = ansi.Hardwrap(s, m.width, true)
		}
		return tea.NewView(s + "\n")
	}
	v := m.input.View()
	if len(m.cands) > 0 {
		v += "\n" + m.candidatesView()
	}
	return tea.NewView(v)
}
