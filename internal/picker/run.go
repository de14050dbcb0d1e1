package picker

import (
	"context"
	"fmt"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// Run shows the picker on the terminal in and out and returns the name of
// the session chosen, "" when the person left without choosing. Errors:
// the terminal's (bubbletea's); ctx ending stops it with ctx's error.
func Run(parent context.Context, in io.Reader, out io.Writer, src Source) (string, error) {
	src = serialized(src)
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	p := tea.NewProgram(newModel(src), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	var wg sync.WaitGroup
	if src.Rows != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := src.Rows(ctx, func(rows []Row) { p.Send(rowsMsg{rows: rows}) })
			p.Send(rowsMsg{done: true, err: err})
		}()
	}
	final, err := p.Run()
	cancel()
	wg.Wait()
	if parent.Err() != nil {
		return "", parent.Err()
	}
	if err != nil {
		return "", fmt.Errorf("picker: %w", err)
	}
	m, _ := final.(model)
	return m.chosen, nil
}

// serialized wraps src's Preview, Search, Rename and Delete so that only
// one of them runs at a time (the store verbs behind them share one
// engine).
func serialized(src Source) Source {
	var mu sync.Mutex
	if f := src.Preview; f != nil {
		src.Preview = func(n string) (string, error) { mu.Lock(); defer mu.Unlock(); return f(n) }
	}
	if f := src.Search; f != nil {
		src.Search = func(q string) ([]Hit, error) { mu.Lock(); defer mu.Unlock(); return f(q) }
	}
	if f := src.Rename; f != nil {
		src.Rename = func(o, n string) error { mu.Lock(); defer mu.Unlock(); return f(o, n) }
	}
	if f := src.Delete; f != nil {
		src.Delete = func(n string) error { mu.Lock(); defer mu.Unlock(); return f(n) }
	}
	return src
}
