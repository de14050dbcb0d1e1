package editor

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// ReadKey shows prompt and waits for one of keys (lower-case letters, as
// Key.String names them: "y", "n"), returned as soon as it is pressed, with
// no Enter. Enter alone returns "" (the caller's default); Ctrl+C returns
// ErrInterrupt, Ctrl+D io.EOF's "" as well; other keys are ignored. When
// In or Out is not a terminal it reads a plain line instead and returns it
// trimmed and lower-cased.
func (e *Editor) ReadKey(ctx context.Context, prompt string, keys []string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !e.terminal {
		line, err := e.readPlain(prompt)
		return strings.ToLower(strings.TrimSpace(line)), err
	}
	h, err := e.begin()
	if err != nil {
		return "", err
	}
	final, late, err := e.run(ctx, keyModel{prompt: prompt, keys: keys, onEnd: h.end, gone: h.gone}, h)
	m, ok := final.(keyModel)
	var after []tea.Msg
	if ok {
		after = m.pending
	}
	// Typed on after the answer, during a turn: kept as TypeAhead keeps
	// keys, so a Ctrl+D or an Esc meant for the turn does not reach the
	// next line.
	e.pending = append(e.pending, typedOnly(append(after, lateKeys(late)...))...)
	if err != nil {
		return "", err
	}
	if !ok || !m.done {
		return "", ErrInterrupt
	}
	return m.key, m.err
}

// keyModel is the bubbletea model behind ReadKey.
type keyModel struct {
	prompt string
	keys   []string
	done   bool
	key    string
	err    error
	// onEnd is called once the key is pressed; pending are the keys and
	// pastes received after it, for the next line.
	onEnd   func()
	gone    <-chan struct{}
	pending []tea.Msg
}

func (m keyModel) Init() tea.Cmd { return nil }

func (m keyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.done {
		switch {
		case isEndMark(msg):
			return m, tea.Quit
		case isKey(msg):
			m.pending = append(m.pending, msg)
		}
		return m, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch s := strings.ToLower(k.String()); {
	case s == "ctrl+c":
		m.done, m.err = true, ErrInterrupt
	case s == "enter" || s == "ctrl+j" || s == "ctrl+d":
		m.done = true
	case slices.Contains(m.keys, s):
		m.done, m.key = true, s
	default:
		return m, nil
	}
	if m.onEnd != nil {
		m.onEnd()
	}
	return m, quitLate(m.gone)
}

// View shows the prompt; once answered, the prompt and the key pressed,
// ending the line.
func (m keyModel) View() tea.View {
	if !m.done {
		return tea.NewView(m.prompt)
	}
	return tea.NewView(m.prompt + m.key + "\n")
}
