// Package repl is the interactive surface: it reads lines (through a line
// editor on a terminal, plainly from a pipe), runs slash commands through
// package command and chat turns through the conversation engine, streams
// replies, and autosaves on exit.
//
// Script mode (stdin is not a terminal): each input line is a prompt or a
// slash command, no prompt is printed, EOF exits, and Run returns
// ErrScriptFailed when any line failed (wrapping the last error too when
// every failure was of the same class, so the exit status says which).
package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider"
)

// ErrScriptFailed is returned at the end of script mode when at least one
// input line failed; each failure was already reported on Err.
var ErrScriptFailed = errors.New("some input lines failed")

// ErrInterrupt is what a LineReader returns when the person pressed Ctrl+C
// at the prompt: the line is discarded and the REPL goes on.
var ErrInterrupt = errors.New("repl: interrupted")

// ErrRewindMenu is what a LineReader returns when the person asked for the
// rewind menu (Esc pressed twice at an empty prompt).
var ErrRewindMenu = errors.New("repl: rewind menu")

// LineReader reads one edited line. ReadLine returns io.EOF at the end of
// input and ErrInterrupt (or an error wrapping it) on Ctrl+C.
type LineReader interface {
	ReadLine(ctx context.Context, prompt string) (string, error)
	// Add records a submitted line in the input history.
	Add(line string) error
}

// Options configure Run.
type Options struct {
	Engine *conversation.Engine
	// Reader reads lines on a terminal; nil selects script mode, reading
	// In line by line.
	Reader   LineReader
	In       io.Reader
	Out, Err io.Writer
	// Banner is printed once at start (to Err in script mode).
	Banner string
	// Autosave saves an unbound conversation on exit (CHATCLI_SESSION_AUTOSAVE).
	Autosave bool
	// Confirm asks a yes/no question on the terminal; nil in script mode.
	Confirm func(question string) bool
	// Config is shown by /config; may be nil.
	Config *config.Config
	// Class maps an error to its class (the process exit status; 0 for
	// none in particular). When every failed line of a script failed with
	// the same nonzero class, Run's ErrScriptFailed wraps the last of those
	// errors so that the caller's exit status keeps the class. Nil groups
	// provider errors (provider.ErrProvider) only.
	Class func(error) int
	// Progress shows activity while the REPL waits (command.Env.Progress);
	// nil shows none.
	Progress func(label string) (stop func())
	// Reply streams each reply (command.Env.Reply); nil writes it to Out
	// as it arrives.
	Reply func(out io.Writer) io.WriteCloser
	// Switch builds providers for /model and /switch (command.Env.Switch).
	Switch command.Switcher
	// Lang is the language of the commands' messages; nil is English.
	Lang *i18n.Printer
	// StylePrompt colours the prompt on a terminal; nil leaves it plain.
	StylePrompt func(string) string
	// WatchKeys, when set, wraps long commands (/compact) so that keys can
	// cancel them (EscCancels); nil leaves Ctrl+C alone to cancel.
	WatchKeys func(context.Context) (context.Context, func())
	// Pick opens the session picker for /resume with no name (on a
	// terminal only); nil makes that a usage error.
	Pick func() (string, error)
	// OnSaved, when set, hears the name of the autosave made on exit.
	OnSaved func(name string)
	// Hub, when set, is the Conversation Hub membership (/hub): each turn
	// is published through it, and the commands that start another
	// conversation rotate it (command.Rotates).
	Hub command.Hub
	// Width is the terminal's width, which tables are fitted to and
	// messages wrapped to (command.Env.Width); nil when output is not a
	// terminal.
	Width func() int
	// ErrWidth is Width for Err: the banner, the error and warning lines
	// and the commands' warnings are wrapped to it (command.WrapText); nil
	// when Err is not a terminal.
	ErrWidth func() int
}

// errWidth is ErrWidth's, 0 without one.
func (o *Options) errWidth() int {
	if o.ErrWidth == nil {
		return 0
	}
	return o.ErrWidth()
}

// sayErr writes the message whose English format is key to Err in Lang,
// wrapped to ErrWidth.
func (o *Options) sayErr(key string, args ...any) {
	io.WriteString(o.Err, command.WrapText(o.Lang.Sprintf(key, args...), o.errWidth()))
}

// Run is the read-eval loop. It returns nil at EOF or /exit, ErrScriptFailed
// in script mode when a line failed, or the error that ended input (ctx's
// error when the process is told to stop). The conversation is closed
// (autosaved as the settings say) on every one of these paths.
func Run(ctx context.Context, o Options) error {
	interactive := o.Reader != nil
	env := &command.Env{Engine: o.Engine, Out: o.Out, Err: o.Err, Interactive: interactive, Confirm: o.Confirm, Config: o.Config,
		Progress: o.Progress, Reply: o.Reply, Lang: o.Lang, Switch: o.Switch, Hub: o.Hub, Width: o.Width, ErrWidth: o.ErrWidth}
	if interactive {
		env.Pick = o.Pick
	}
	if o.Banner != "" {
		fmt.Fprintln(o.Err, command.WrapText(o.Banner, o.errWidth()))
	}
	read := o.Reader
	if read == nil {
		read = &scriptReader{r: bufio.NewReader(o.In)}
	} else {
		env.Ask = func(q string) (string, error) { return read.ReadLine(ctx, q) }
	}
	class := o.Class
	if class == nil {
		class = providerClass
	}
	failed, firstClass, sameClass := 0, 0, true
	var readErr, lastFailure error
	for {
		p := prompt(o.Engine)
		if interactive && o.StylePrompt != nil {
			p = o.StylePrompt(p)
		}
		line, err := read.ReadLine(ctx, p)
		if errors.Is(err, ErrInterrupt) && ctx.Err() == nil {
			continue
		}
		if errors.Is(err, ErrRewindMenu) && ctx.Err() == nil {
			if err := step(ctx, env, "/rewind", nil); err != nil {
				o.sayErr("error: %s\n", command.ErrorLineIn(o.Lang, err))
			}
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err // the conversation is still kept below
			}
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !interactive || command.IsCommand(line) {
			// What was typed at a terminal is sent as it is (a paste keeps
			// its indentation and blank lines); script lines are trimmed.
			line = strings.TrimSpace(line)
		}
		if interactive {
			if err := read.Add(line); err != nil {
				o.sayErr("warning: %s\n", o.Lang.Sprintf("input history not saved: %v", err))
			}
		}
		err = step(ctx, env, line, o.WatchKeys)
		if errors.Is(err, command.ErrQuit) {
			break
		}
		if err != nil {
			failed++
			if c := class(err); failed == 1 {
				firstClass = c
			} else if c != firstClass {
				sameClass = false
			}
			lastFailure = err
			o.sayErr("error: %s\n", command.ErrorLineIn(o.Lang, err))
		}
	}
	name, err := o.Engine.Close(o.Autosave)
	exitLine(o, name)
	if err = errors.Join(readErr, err); err != nil {
		return err
	}
	if failed > 0 && !interactive {
		sf := &scriptFailure{failed: failed}
		if sameClass && firstClass != 0 { // all of one kind: keep it for the exit status
			sf.last = lastFailure
		}
		return sf
	}
	return nil
}

// scriptFailure is the ErrScriptFailed of Run: its text only counts the
// failed lines (each was reported as it happened); it also wraps the last
// failure when all of them were of one class.
type scriptFailure struct {
	failed int
	last   error
}

func (e *scriptFailure) Error() string { return e.Said().Error() }

// Said implements i18n.Sayer.
func (e *scriptFailure) Said() error {
	return i18n.Errorf("%w (%d; each is reported above)", ErrScriptFailed, e.failed)
}

func (e *scriptFailure) Unwrap() []error {
	if e.last == nil {
		return []error{ErrScriptFailed}
	}
	return []error{ErrScriptFailed, e.last}
}

// providerClass is the Class used when Options.Class is nil: 1 for a
// provider error, 0 for any other.
func providerClass(err error) int {
	if errors.Is(err, provider.ErrProvider) {
		return 1
	}
	return 0
}

// step runs one input line: a slash command or a chat turn. Ctrl+C
// (SIGINT) cancels it: a turn while it streams or compacts, a /compact
// while it waits for the summary; with watch set, Esc cancels those too.
// (Other commands may ask questions on the terminal, so keys are not
// watched while they run.)
func step(ctx context.Context, env *command.Env, line string, watch func(context.Context) (context.Context, func())) error {
	tctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	isCommand := command.IsCommand(line)
	if watch != nil && (!isCommand || strings.HasPrefix(line, "/compact") || runsTask(line)) {
		var unwatch func()
		tctx, unwatch = watch(tctx)
		defer unwatch()
	}
	h := env.Hub
	if h == nil || h.Thread() == "" {
		h = nil
	}
	if isCommand {
		err := command.Dispatch(tctx, env, line)
		if h != nil && err == nil && command.Rotates(line) {
			h.Rotate()
		}
		return err
	}
	var epoch int
	if h != nil {
		epoch = h.Epoch()
	}
	err := command.RunTurn(tctx, env, line)
	if hist := env.Engine.History(); h != nil && err == nil && len(hist) > 0 {
		h.Publish(epoch, line, hist[len(hist)-1].Content)
	}
	return err
}

// runsTask reports whether line is a mode command with a task (/agent
// TASK, /coder TASK, /chat PROMPT), which runs a turn.
func runsTask(line string) bool {
	f := strings.Fields(line)
	return len(f) > 1 && (f[0] == "/agent" || f[0] == "/coder" || f[0] == "/chat")
}

// prompt is "[session] model> ", or "model> " when unbound; in agent and
// coder modes the mode follows the model: "model (agent)> ".
func prompt(e *conversation.Engine) string {
	p := e.Provider().Model() + "> "
	if m := e.Mode(); m != conversation.ModeChat {
		p = e.Provider().Model() + " (" + m + ")> "
	}
	if b := e.Bound(); b != "" {
		p = "[" + b + "] " + p
	}
	return p
}

// scriptReader reads lines from a pipe with no length limit.
type scriptReader struct{ r *bufio.Reader }

func (s *scriptReader) ReadLine(_ context.Context, _ string) (string, error) {
	line, err := s.r.ReadString('\n')
	if err == io.EOF && line != "" {
		return line, nil
	}
	return strings.TrimRight(line, "\r\n"), err
}

func (s *scriptReader) Add(string) error { return nil }
