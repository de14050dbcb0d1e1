package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/render"
)

// ErrUsage is wrapped by errors about how a command was typed.
var ErrUsage = errors.New("usage")

// ErrQuit is returned by /exit and /quit.
var ErrQuit = errors.New("quit")

// Env is what a command acts on and reports to.
type Env struct {
	Engine *conversation.Engine
	Out    io.Writer
	Err    io.Writer
	// Interactive is true when a person answers at a terminal; destructive
	// commands then ask Confirm, otherwise they need --yes.
	Interactive bool
	Confirm     func(question string) bool
	// Config is the configuration the surface started with (for /config);
	// may be nil.
	Config *config.Config
	// Ask reads one answer on the terminal (the rewind menu's choice); nil
	// when there is none.
	Ask func(prompt string) (string, error)
	// Pick lets the person choose a session on the terminal (the picker)
	// and returns its name, "" when they chose none; nil when there is no
	// terminal.
	Pick func() (string, error)
	// Progress shows label ("waiting for the model") as activity on the
	// terminal until the returned stop is called or output is written to
	// Out or Err (render.Spinner); nil when nothing is shown (not a
	// terminal, --no-anim).
	Progress func(label string) (stop func())
	// Reply returns the writer a turn's reply is streamed to (rendered
	// Markdown on a terminal); its Close ends the reply. Nil streams the
	// reply to Out as it arrives.
	Reply func(out io.Writer) io.WriteCloser
	// Switch builds the provider named with model ("" for its configured
	// or default model), for /model and /switch; nil when the surface
	// cannot change it.
	Switch Switcher

	titles map[string]string // session name -> title, from the last completion listing
	// Lang is the language of what commands report; nil is English.
	Lang *i18n.Printer
	// Hub is the surface's Conversation Hub membership (/hub); nil when
	// the surface has none.
	Hub Hub
	// Width is the terminal's width in cells, which tables are fitted to
	// (writeRows) and messages wrapped to (WrapText); nil, or 0, when Out
	// is not a terminal: nothing is cut or wrapped.
	Width func() int
	// ErrWidth is Width for Err, which warnings are wrapped to; nil, or
	// 0, when Err is not a terminal.
	ErrWidth func() int
	// Headless is true when the command runs as chatcli's own subcommand
	// (`chatcli memory …`, `chatcli context …`): what it reports names
	// that form, not the slash command.
	Headless bool
}

// usage is the usage line of a command for env's surface: slash in the
// REPL (and wherever a conversation types commands), headless when env
// is Headless.
func (env *Env) usage(slash, headless string) string {
	if env.Headless {
		return headless
	}
	return slash
}

// width is Width's, 0 without one.
func (env *Env) width() int {
	if env.Width == nil {
		return 0
	}
	return env.Width()
}

// say writes the message whose English format is key to Out, in Lang,
// wrapped to the terminal's width (WrapText).
func (env *Env) say(key string, args ...any) {
	if w := env.width(); w > 0 {
		io.WriteString(env.Out, WrapText(env.Lang.Sprintf(key, args...), w))
		return
	}
	env.Lang.Fprintf(env.Out, key, args...)
}

// warn writes text to Err as a warning ("warning: text"; "aviso: text"
// in Portuguese), wrapped to the terminal's width.
func (env *Env) warn(text string) {
	w := 0
	if env.ErrWidth != nil {
		w = env.ErrWidth()
	}
	io.WriteString(env.Err, WrapText(env.Lang.Sprintf("warning: %s\n", text), w))
}

// progress starts Progress for label when there is one; the stop function
// returned is never nil.
func (env *Env) progress(label string) (stop func()) {
	if env.Progress == nil {
		return func() {}
	}
	return env.Progress(label)
}

// Command is one slash command.
type Command struct {
	Name    string // without the slash: "session"
	Usage   string // "/session save NAME"
	Summary string
	Run     func(ctx context.Context, env *Env, args []string) error
}

// Commands returns every slash command, sorted by name.
func Commands() []Command {
	cmds := []Command{
		{Name: "help", Usage: "/help", Summary: "list the commands", Run: runHelp},
		{Name: "exit", Usage: "/exit", Summary: "leave chatcli (also /quit, Ctrl+D)", Run: runQuit},
		{Name: "quit", Usage: "/quit", Summary: "leave chatcli", Run: runQuit},
		{Name: "newsession", Usage: "/newsession", Summary: "start a new conversation (same as /session new)", Run: func(ctx context.Context, env *Env, args []string) error {
			return runSession(ctx, env, append([]string{"new"}, args...))
		}},
		resumeCommand,
		{Name: "clear", Usage: "/clear", Summary: "start a new conversation (same as /session new)", Run: func(ctx context.Context, env *Env, args []string) error {
			return runSession(ctx, env, append([]string{"new"}, args...))
		}},
		{Name: "model", Usage: modelUsage, Summary: "show the provider and model, or use model NAME from the next turn", Run: runModel},
		{Name: "switch", Usage: switchUsage, Summary: "use another provider (any --provider name: openai, anthropic, googleai, ollama, …) from the next turn", Run: runSwitch},
		{Name: "session", Usage: "/session VERB [ARGS]", Summary: "save, load and manage sessions (/session help)", Run: runSession},
		{Name: "config", Usage: "/config [session]", Summary: "show every setting with its value and source; session: the session settings and the active journal", Run: runConfig},
		{Name: "compact", Usage: "/compact [instruction]", Summary: "summarise older messages (keeps the last 10; with an instruction, the last 4)", Run: runCompact},
		{Name: "storage", Usage: storageUsage, Summary: "disk use per store and the retention rules; prune lists what they remove, --apply removes it", Run: runStorage},
		{Name: "rewind", Usage: rewindUsage, Summary: "step back to a checkpoint: the conversation, the files the tools changed, or both (Esc Esc opens the menu); compact undoes the last compaction", Run: runRewind},
		{Name: "retry", Usage: retryUsage, Summary: "resend the last prompt when its request failed or was cancelled (or TEXT in its place)", Run: runRetry},
		{Name: "context", Usage: contextUsage, Summary: "snapshots of files and folders sent with every request (create, attach, …); alone: what each request includes", Run: runContext},
		{Name: "hub", Usage: hubUsage, Summary: "join a Conversation Hub thread: see live the turns of the chats and terminals in it", Run: runHub},
		{Name: "memory", Usage: memoryUsage, Summary: "notes sent with every request of every session", Run: runMemory},
		{Name: "chat", Usage: "/chat [PROMPT]", Summary: "chat mode: no tools (the default)", Run: modeCommand(conversation.ModeChat)},
		{Name: "agent", Usage: "/agent [TASK]", Summary: "agent mode: the model reads files and runs commands (each command asks first)", Run: modeCommand(conversation.ModeAgent)},
		{Name: "coder", Usage: "/coder [TASK]", Summary: "coder mode: the model also writes and edits files (each write asks first)", Run: modeCommand(conversation.ModeCoder)},
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	return cmds
}

// Run runs the slash command name (without the slash) with args, as
// Dispatch does for a typed line: the headless verbs (`chatcli memory …`)
// call the REPL's command. Errors as Dispatch.
func Run(ctx context.Context, env *Env, name string, args []string) error {
	for _, c := range Commands() {
		if c.Name == name {
			return c.Run(ctx, env, args)
		}
	}
	return i18n.Errorf("%w: unknown command /%s; /help lists the commands", ErrUnknownCommand, name)
}

// ErrUnknownCommand is wrapped by Run's error for a name no command has;
// it is ErrUsage too, and says what ErrUsage says. A surface may answer
// it as a reply rather than refuse the line.
var ErrUnknownCommand = fmt.Errorf("%w", ErrUsage)

// IsCommand reports whether an input line is a slash command.
func IsCommand(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "/") }

// Dispatch runs the slash command in line. Errors: ErrQuit for /exit, an
// ErrUsage error for an unknown command or bad arguments, or the command's
// own error.
func Dispatch(ctx context.Context, env *Env, line string) error {
	fields := strings.Fields(strings.TrimSpace(line))
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return fmt.Errorf("%w: not a command: %q", ErrUsage, line)
	}
	return Run(ctx, env, strings.TrimPrefix(fields[0], "/"), fields[1:])
}

// Complete returns the completions of a partly typed command line: command
// names, then /session verbs, then session names for the verbs that take
// one. Each completion is a whole line.
func Complete(env *Env, line string) []string {
	if !strings.HasPrefix(line, "/") {
		return nil
	}
	fields := strings.Fields(line)
	trailing := strings.HasSuffix(line, " ")
	var prefix string
	var cands []string
	switch {
	case len(fields) <= 1 && !trailing:
		for _, c := range Commands() {
			if c.Name == "session" || c.Name == "config" { // takes a verb: ready for it
				cands = append(cands, "/"+c.Name+" ")
				continue
			}
			cands = append(cands, "/"+c.Name)
		}
		return withPrefix(cands, line, "")
	case fields[0] == "/session" && (len(fields) == 1 || len(fields) == 2 && !trailing):
		prefix = "/session "
		for _, v := range sessionVerbs {
			if v.nargs > 0 {
				cands = append(cands, v.name+" ")
			} else {
				cands = append(cands, v.name)
			}
		}
	case fields[0] == "/session" && takesName[fields[1]] && (len(fields) == 2 || len(fields) == 3 && !trailing):
		prefix = "/session " + fields[1] + " "
		cands = sessionNames(env)
	case fields[0] == "/resume" && (len(fields) == 1 && trailing || len(fields) == 2 && !trailing):
		prefix = "/resume "
		cands = sessionNames(env)
	default:
		return nil
	}
	return withPrefix(cands, line, prefix)
}

// sessionNames lists the store's session names, newest first, and keeps
// their titles for CompletionNote.
func sessionNames(env *Env) []string {
	list, _ := env.Engine.Store().List()
	names := make([]string, len(list))
	env.titles = make(map[string]string, len(list))
	for i, h := range list {
		names[i] = h.Name
		env.titles[h.Name] = h.Title
	}
	return names
}

// CompletionNote returns what is shown beside cand, a line Complete
// returned, in the list of candidates: the title of the session a
// "/session VERB NAME" or "/resume NAME" candidate names, made visible
// (render.VisibleLine: a title is untrusted text), or "" for any other
// candidate and for a session without a title.
func CompletionNote(env *Env, cand string) string {
	fields := strings.Fields(cand)
	if len(fields) < 2 || fields[0] != "/session" && fields[0] != "/resume" {
		return ""
	}
	return render.VisibleLine(env.titles[fields[len(fields)-1]])
}

func withPrefix(cands []string, line, prefix string) []string {
	var out []string
	for _, c := range cands {
		if full := prefix + c; strings.HasPrefix(full, line) {
			out = append(out, full)
		}
	}
	return out
}

func runQuit(context.Context, *Env, []string) error { return ErrQuit }

func runHelp(_ context.Context, env *Env, _ []string) error {
	env.say("Type a message to chat. Commands:\n")
	for _, c := range Commands() {
		writeHelpLine(env.Out, c.Usage, env.Lang.Summary(c.Summary))
	}
	env.say("Session verbs:\n")
	for _, v := range sessionVerbs {
		writeHelpLine(env.Out, "/session "+v.usage, env.Lang.Summary(v.summary))
	}
	return nil
}

// The columns of a /help line: the usage from column 3, the summary from
// column helpSummaryAt+1, no line wider than helpWidth (as --help's).
const (
	helpWidth     = 80
	helpSummaryAt = 33
)

// writeHelpLine writes one command of /help: its usage padded to the
// summary's column, or on lines of its own (continued four columns in)
// when it is longer, then its summary word-wrapped in that column.
func writeHelpLine(w io.Writer, usage, summary string) {
	var b strings.Builder
	b.WriteString("  ")
	col := 2
	if ansi.StringWidth(usage) < helpSummaryAt-col {
		b.WriteString(usage)
		col += ansi.StringWidth(usage)
	} else {
		for i, l := range wordWrap(usage, helpWidth-4) {
			if i > 0 {
				b.WriteString("\n    ")
			}
			b.WriteString(l)
		}
		b.WriteString("\n")
		col = 0
	}
	b.WriteString(strings.Repeat(" ", helpSummaryAt-col))
	indent := "\n" + strings.Repeat(" ", helpSummaryAt)
	b.WriteString(strings.Join(wordWrap(summary, helpWidth-helpSummaryAt), indent))
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

// wordWrap cuts s into lines of at most width columns at its spaces only
// (never inside "--yes" or "autosave-…"); a longer word has a line of its
// own.
func wordWrap(s string, width int) []string {
	var lines []string
	line, col := "", 0
	for _, word := range strings.Fields(s) {
		n := ansi.StringWidth(word)
		switch {
		case col == 0:
			line, col = word, n
		case col+1+n <= width:
			line, col = line+" "+word, col+1+n
		default:
			lines = append(lines, line)
			line, col = word, n
		}
	}
	return append(lines, line)
}
