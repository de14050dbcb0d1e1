package repl

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/render"
)

// Permission is a person's answer to a permission question.
type Permission int

// The answers: no, yes for this action, yes for every action of this tool
// until the process ends.
const (
	PermissionNo Permission = iota
	PermissionYes
	PermissionAlways
)

// ErrNotApproved is returned by Permit.Ask when no person can answer
// (input is not a terminal: script mode, -p). Its text is what the model
// is told.
var ErrNotApproved = errors.New("refused: not approved; input is not a terminal — rerun with --agent-auto-exec to allow")

// Permit asks a person before a tool writes a file or runs a command. The
// zero value, or one whose Ask function is nil, refuses every action with
// ErrNotApproved. It is safe for concurrent use: questions are asked one at
// a time.
type Permit struct {
	mu sync.Mutex
	// ask reads one answer on the terminal after printing prompt; nil
	// when input is not a terminal.
	ask func(ctx context.Context, prompt string) (string, error)
	// out receives the line saying an answer was not understood.
	out io.Writer
	// lang is the language of the question and of out's lines; nil is
	// English.
	lang *i18n.Printer
}

// NewPermit returns a Permit that asks through ask (on a terminal the
// line editor's ReadKey, one key per answer; nil when input is not a
// terminal) and reports unreadable
// answers to out.
func NewPermit(ask func(ctx context.Context, prompt string) (string, error), out io.Writer) *Permit {
	if out == nil {
		out = io.Discard
	}
	return &Permit{ask: ask, out: out}
}

// SetAsk sets the function that reads answers (the surface creates its
// line editor after the engine).
func (p *Permit) SetAsk(ask func(ctx context.Context, prompt string) (string, error)) {
	p.mu.Lock()
	p.ask = ask
	p.mu.Unlock()
}

// SetLang sets the language of the question and of the lines about
// answers; the answers stay y, n and a.
func (p *Permit) SetLang(lang *i18n.Printer) {
	p.mu.Lock()
	p.lang = lang
	p.mu.Unlock()
}

// Ask asks "Allow <summary>? [y]es / [n]o / [a]lways for this session " and
// returns the answer: y or yes, n or no (also an empty line, Ctrl+C or the
// end of input), a or always; anything else is asked again, up to three
// times, then taken as no. The Esc watch of a running turn is paused while
// the question is open (see PauseKeys). Without a terminal it returns
// PermissionNo and ErrNotApproved; when ctx ends, PermissionNo and ctx's
// error.
func (p *Permit) Ask(ctx context.Context, summary string) (Permission, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ask == nil {
		return PermissionNo, ErrNotApproved
	}
	resume := PauseKeys(ctx)
	defer resume()
	q := p.lang.Sprintf("Allow %s? [y]es / [n]o / [a]lways for this session ", oneLine(summary))
	for try := 0; try < 3; try++ {
		if err := ctx.Err(); err != nil {
			return PermissionNo, err
		}
		line, err := p.ask(ctx, q)
		if err != nil {
			return PermissionNo, ctx.Err()
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return PermissionYes, nil
		case "a", "always":
			return PermissionAlways, nil
		case "", "n", "no":
			return PermissionNo, nil
		}
		if try < 2 {
			p.lang.Fprintf(p.out, "Answer y, n or a.\n")
		}
	}
	p.lang.Fprintf(p.out, "Taken as no.\n")
	return PermissionNo, nil
}

// oneLine keeps a summary on one line, its control characters made
// visible (the summary holds what the model asked to run).
func oneLine(s string) string {
	return render.VisibleLine(strings.Join(strings.Fields(s), " "))
}
