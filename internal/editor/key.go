package editor

import (
	"context"
	"fmt"
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
	h, err := startHandover(e.in)
	if err != nil {
		return "", fmt.Errorf("editor: %w", err)
	}
	final, late, err := e.run(ctx, keyModel{prompt: prompt, keys: keys, onEnd: h.end}, h)
	m, ok := final.(keyModel)
	if ok {
		e.pending = append(e.pending, m.pending...)
	}
	e.pending = append(e.pending, lateKeys(late)...) // typed on after the answer
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
	return m, quitLate
}

// View shows the prompt; once answered, the prompt and the key pressed,
// ending the line.
func (m keyModel) View() tea.View {
	if !m.done {
		return tea.NewView(m.prompt)
	}
	return tea.NewView(m.prompt + m.key + "\n")
}
