package editor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"golang.org/x/term"
)

// ErrInterrupt is returned by ReadLine when the person presses Ctrl+C.
var ErrInterrupt = errors.New("editor: interrupted")

// ErrDoubleEsc is returned by ReadLine when Esc is pressed twice within
// 500 ms on an empty line.
var ErrDoubleEsc = errors.New("editor: escape pressed twice")

// Config for an Editor.
type Config struct {
	// In is the terminal input; nil means os.Stdin.
	In io.Reader
	// Out is the terminal output; nil means os.Stdout.
	Out io.Writer
	// HistoryFile is the persistent input history path; "" disables
	// persistence.
	HistoryFile string
	// HistoryMax is the maximum number of entries kept, in memory and in
	// the file (default 1000 when <= 0); HistoryMaxBytes caps the file's
	// size in bytes, the oldest entries going first (0 for no cap).
	HistoryMax      int
	HistoryMaxBytes int64
	// HistorySeed, when HistoryFile does not exist yet, is read into it
	// first (SeedFileName in the working folder: ChatCLI's input history);
	// Editor.Seeded then says how many entries it gave. "" for none.
	HistorySeed string
	// HistoryKey (CHATCLI_ENCRYPTION_KEY; the zero Key for none) seals the
	// history file's lines and opens them; with HistoryPlaintext
	// (CHATCLI_HISTORY_PLAINTEXT) lines are written in plaintext anyway and
	// the key only opens sealed ones (doc.go, "Encryption").
	HistoryKey       seal.Key
	HistoryPlaintext bool
	// Complete returns completion candidates for the current input, each a
	// full replacement line. It may be nil.
	Complete func(line string) []string
	// Note returns what is shown beside a candidate Complete returned when
	// several are listed (a session's title beside its name); "" shows
	// nothing. It may be nil.
	Note func(candidate string) string
	// Now is the clock used to time Esc presses; nil means time.Now.
	Now func() time.Time
	// Lang is the language of the editor's own labels ("[pasted 42
	// lines]", the history search's prompt); nil is English.
	Lang *i18n.Printer
}

// Editor reads lines from a person at a terminal. ReadLine must not be called
// concurrently; Add and History may be called from any goroutine.
type Editor struct {
	in       io.Reader
	out      io.Writer
	complete func(string) []string
	note     func(string) string
	lang     *i18n.Printer
	now      func() time.Time
	terminal bool          // In and Out are a terminal: edit interactively
	plain    *bufio.Reader // reads lines otherwise
	pending  []tea.Msg     // keys read past the end of the last line

	mu   sync.Mutex
	prog *tea.Program // the program reading a line, nil between lines
	raw  bool         // the terminal is in raw mode (a handover runs)
	hist *history
	// seeded is how many entries New took from Config.HistorySeed.
	seeded int
}

// Seeded is how many entries New took from Config.HistorySeed (0: none).
func (e *Editor) Seeded() int { return e.seeded }

// isTerminal reports whether v is a terminal; a variable so tests can run
// the interactive editor over pipes.
var isTerminal = func(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fallbackWidth and fallbackHeight size the editor when the terminal does
// not report its size.
const (
	fallbackWidth  = 80
	fallbackHeight = 24
)

// New returns an Editor, loading the history file if present. A missing file
// is fine; one that cannot be read or is corrupt is an error naming the file
// (the caller may retry with HistoryFile "" to run without persistence).
func New(cfg Config) (*Editor, error) {
	codec := lineCodec{key: cfg.HistoryKey, plaintext: cfg.HistoryPlaintext}
	seeded, err := seedHistory(cfg.HistoryFile, cfg.HistorySeed, cfg.HistoryMax, codec)
	if err != nil {
		return nil, err
	}
	h, err := loadHistory(cfg.HistoryFile, cfg.HistoryMax, codec)
	if err != nil {
		return nil, err
	}
	h.maxBytes = cfg.HistoryMaxBytes
	h.entries = h.keep(h.entries)
	e := &Editor{
		in:       cfg.In,
		out:      cfg.Out,
		complete: cfg.Complete,
		note:     cfg.Note,
		lang:     cfg.Lang,
		now:      cfg.Now,
		hist:     h,
		seeded:   seeded,
	}
	if e.in == nil {
		e.in = os.Stdin
	}
	if e.out == nil {
		e.out = os.Stdout
	}
	if e.now == nil {
		e.now = time.Now
	}
	e.terminal = isTerminal(e.in) && isTerminal(e.out)
	if !e.terminal {
		e.plain = bufio.NewReader(e.in)
	}
	return e, nil
}

// ReadLine shows prompt, lets the person edit one input (one line or
// several; see the package doc for the keys and pastes) and returns it.
// It returns io.EOF on Ctrl+D on an empty line, ErrInterrupt on Ctrl+C,
// ErrDoubleEsc when Esc is pressed twice within 500 ms on an empty line, and
// ctx.Err() when ctx ends first. When In or Out is not a terminal it writes
// the prompt and reads one line as plain text (io.EOF at the end of input).
func (e *Editor) ReadLine(ctx context.Context, prompt string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !e.terminal {
		return e.readPlain(prompt)
	}
	h, err := e.begin()
	if err != nil {
		return "", err
	}
	m := newModel(prompt, e.History(), e.complete, e.now)
	m.note, m.lang, m.onEnd, m.gone = e.note, e.lang, h.end, h.gone
	m = m.replay(e.pending)
	e.pending = nil
	final, late, err := e.run(ctx, m, h)
	fm, ok := final.(model)
	if ok {
		e.pending = fm.pending
	}
	e.pending = append(e.pending, lateKeys(late)...)
	if err != nil {
		return "", err
	}
	if !ok || !fm.done {
		// The program was stopped from outside (SIGTERM): treat it as an
		// interrupt so the caller can decide what to do.
		return "", ErrInterrupt
	}
	if fm.err != nil {
		return "", fm.err
	}
	return fm.value, nil
}

// begin starts the handover of one program's input (raw mode on a
// terminal), under e.mu so that Println knows the terminal's mode.
func (e *Editor) begin() (*handover, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	h, err := startHandover(e.in)
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	e.raw = h.raw != nil
	return h, nil
}

// run runs one inline program of m on the terminal, reading h, and
// returns its final model and the bytes read after the input ended; the
// error is ctx's when it ended, ErrInterrupt for a program interrupted by
// Ctrl+C, or the program's own.
func (e *Editor) run(ctx context.Context, m tea.Model, h *handover) (tea.Model, []byte, error) {
	p := tea.NewProgram(m,
		tea.WithContext(ctx),
		tea.WithInput(h.input()),
		tea.WithOutput(e.out),
		tea.WithWindowSize(fallbackWidth, fallbackHeight),
	)
	e.mu.Lock()
	e.prog = p
	e.mu.Unlock()
	final, err := p.Run()
	e.mu.Lock()
	late := h.stop() // the terminal is cooked again before Println writes to it
	e.prog, e.raw = nil, false
	e.mu.Unlock()
	switch {
	case ctx.Err() != nil:
		return final, late, ctx.Err()
	case errors.Is(err, tea.ErrInterrupted):
		return final, late, ErrInterrupt
	case err != nil:
		return final, late, fmt.Errorf("editor: %w", err)
	}
	return final, late, nil
}

// Println shows text on lines of its own above the line being edited
// (bubbletea's Println), or writes it to Out when no line is being read
// (the Conversation Hub's live turns). It may be called from any
// goroutine; text should already be made visible (render.Visible).
func (e *Editor) Println(text string) {
	e.mu.Lock()
	if p := e.prog; p != nil {
		e.mu.Unlock()
		p.Send(tea.Println(text)()) // a no-op once the program ended
		return
	}
	defer e.mu.Unlock()
	if e.raw { // between raw mode and the program: no output processing
		fmt.Fprint(e.out, strings.ReplaceAll(text, "\n", "\r\n")+"\r\n")
		return
	}
	fmt.Fprintln(e.out, text)
}

// readPlain reads one line without editing, for input that is not a
// terminal. The line terminator (LF or CRLF) is removed.
func (e *Editor) readPlain(prompt string) (string, error) {
	if _, err := io.WriteString(e.out, prompt); err != nil {
		return "", fmt.Errorf("editor: write prompt: %w", err)
	}
	line, err := e.plain.ReadString('\n')
	if err != nil {
		if !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("editor: read input: %w", err)
		}
		if line == "" {
			return "", io.EOF
		}
	}
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r"), nil
}

// Add appends line to the history, skipping blank lines and a repeat of the
// newest entry, and persists it: one appended line in the history file
// (0600, parent directory 0700); when the file grows past HistoryMax entries
// it is rewritten atomically with the newest HistoryMax entries. The entry
// stays in memory even when persisting fails.
func (e *Editor) Add(line string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, err := e.hist.add(line)
	return err
}

// History returns a copy of the history entries, oldest first.
func (e *Editor) History() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hist.snapshot()
}
