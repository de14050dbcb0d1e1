package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/editor"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/retention"
	"github.com/chatcli/chatcli/internal/session"
)

// errFlags marks errors in flags and arguments: the REPL's usage errors.
var errFlags = command.ErrUsage

// noArgs rejects positional arguments with a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return i18n.Errorf("%w: unexpected argument %q; see %s --help", errFlags, args[0], cmd.CommandPath())
	}
	return nil
}

// rootOptions are the flags of `chatcli` itself.
type rootOptions struct {
	f       *factory
	Prompt  string
	Session string
	// Continue, Resume and Name choose the conversation (resume.go).
	Continue bool
	Resume   string
	Name     string
	Provider string
	Model    string
	// Agent and Coder start in that mode; AutoExec lets tools write and
	// run commands without asking (CHATCLI_AGENT_AUTO_EXEC).
	Agent, Coder, AutoExec bool
	// PlaintextHistory keeps the input history in plaintext when a key is
	// set (CHATCLI_HISTORY_PLAINTEXT).
	PlaintextHistory bool
	OneShot          oneShotOptions
}

const rootLong = `chatcli is a terminal AI chat client whose conversations are kept as durable,
named sessions under $CHATCLI_HOME (default ~/.chatcli).

Run without arguments for the interactive REPL (type /help there); with stdin
not a terminal, each input line is a prompt or a slash command. -p runs one
prompt and exits. -c continues this folder's newest conversation, --resume
NAME (or --session NAME) session NAME.

Providers (LLM_PROVIDER or --provider, any case):
  openai     OpenAI and OpenAI-compatible servers (Ollama, llama.cpp, vLLM):
             OPENAI_API_KEY, OPENAI_MODEL, OPENAI_BASE_URL (or OPENAI_API_URL)
  anthropic  (also CLAUDEAI) ANTHROPIC_API_KEY or CLAUDEAI_API_KEY,
             ANTHROPIC_MODEL or CLAUDEAI_MODEL, ANTHROPIC_BASE_URL
  googleai   (also GEMINI) Gemini's OpenAI-compatible endpoint:
             GOOGLEAI_API_KEY or GEMINI_API_KEY, GOOGLEAI_MODEL
             (gemini-2.5-flash), GOOGLEAI_BASE_URL
  bedrock    Claude on Amazon Bedrock: AWS_ACCESS_KEY_ID and
             AWS_SECRET_ACCESS_KEY (or AWS_BEARER_TOKEN_BEDROCK),
             BEDROCK_REGION (us-east-1), BEDROCK_MODEL
  ollama     OLLAMA_BASE_URL (http://localhost:11434),
             OLLAMA_MODEL (gpt-oss:20b)
  xai, openrouter, zai, moonshot, minimax, github_models
             OpenAI-compatible services: <NAME>_API_KEY (GITHUB_MODELS_TOKEN
             or GITHUB_TOKEN), <NAME>_MODEL, <NAME>_BASE_URL
  offline    the default when nothing is configured: deterministic replies
             generated locally, NOT by a language model
Any saved session continues on any of them: --provider P, /session load NAME.

Settings missing from the environment are read from ChatCLI's dotenv file:
the file CHATCLI_DOTENV names, or .env in the working folder.

Other settings: CHATCLI_HOME, CHATCLI_SESSION_AUTOSAVE (on|off),
CHATCLI_SESSION_TRANSCRIPT (on|off), CHATCLI_SESSION_WRITETHROUGH (on|off:
a bound session is written at save, detach, load, new, fork and exit only
and adopts nothing), CHATCLI_SESSION_TTL (90d),
CHATCLI_SESSION_AUTOSAVE_KEEP (600), CHATCLI_REQUEST_TIMEOUT (10m),
CHATCLI_CONTEXT_WINDOW (tokens), CHATCLI_RESUME_REPLAY (10 messages shown
on a load or resume), HISTORY_FILE, HISTORY_MAX_SIZE,
CHATCLI_AGENT_AUTO_EXEC (off), CHATCLI_AGENT_MAX_STEPS (25),
CHATCLI_RENDER (on: Markdown replies on a terminal; NO_COLOR or CLICOLOR=0
turn colour off), CHATCLI_LANG (pt-BR or en; else LC_ALL, LANG),
CHATCLI_MCP_SESSION_AUTOSAVE (mcp-<id> copies of MCP/ACP conversations;
follows CHATCLI_SESSION_AUTOSAVE), CHATCLI_DEBUG_LOCKSTATS (any value: lock
waits on stderr at exit). Each may also be set in the config file (chatcli
config --help).

Encryption at rest: CHATCLI_ENCRYPTION_KEY (base64 of 32 bytes, e.g.
` + "`openssl rand -base64 32`" + `, or a passphrase, through Argon2id and the salt in
$CHATCLI_HOME/key-salt.json) seals with AES-256-GCM every session file,
journal line, file checkpoint, context, memory note and the input history
(--plaintext-history or CHATCLI_HISTORY_PLAINTEXT=true keep the history
plaintext). File and folder names, folder paths and settings stay plaintext.
To change the key, put the previous one in CHATCLI_ENCRYPTION_KEY_OLD and run
chatcli storage rekey; chatcli storage decrypt goes back to plaintext.

Every request also carries the bootstrap files (AGENTS.md, SOUL.md, USER.md,
IDENTITY.md, RULES.md of the working folder, else of CHATCLI_HOME), the
memory notes (chatcli memory --help) and the attached contexts (chatcli
context --help). In a prompt, @file PATH, @command CMD, @git, @env,
@history, @session QUERY and @recall KEY expand before it is sent.

Exit codes: 0 success, 1 other failure, 2 bad usage, flag, session name,
checkpoint, note or message number, or a name already taken, 3 session or
context not found, 4 unreadable, too-new or encrypted session, context or
memory file (no key or the wrong key), 5 the LLM request failed, 6 chatcli
storage verify found damage it did not repair, 130 stopped by a signal. In
script mode, when every failed line failed in the same way, the exit code is
that line's code; otherwise 1.

Agent and coder modes (--agent, --coder; /agent, /coder, /chat in the REPL)
let the model call tools in the working directory: agent reads files and
runs commands, coder also writes them. Each write and command asks first
on a terminal; without one it is refused unless --agent-auto-exec is given.`

// newRootCmd builds the command tree. runF, when not nil, replaces the
// root's run function (tests of flag parsing).
func newRootCmd(f *factory, runF func(*rootOptions) error) *cobra.Command {
	o := &rootOptions{f: f}
	cmd := &cobra.Command{
		Use:           "chatcli",
		Short:         "Terminal AI chat with durable, named sessions",
		Long:          rootLong,
		Version:       version,
		Args:          rootArgs(o),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			if err := o.checkResumeFlags(cmd); err != nil {
				return err
			}
			if cmd.Flags().Changed("prompt") {
				return oneShotRun(cmd.Context(), o)
			}
			return replRun(cmd.Context(), o)
		},
	}
	cmd.SetIn(f.streams.In)
	cmd.SetOut(f.streams.Out)
	cmd.SetErr(f.streams.Err)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return i18n.Errorf("%w: %v; see %s --help", errFlags, flagError(err), c.CommandPath())
	})
	fl := cmd.Flags()
	fl.StringVarP(&o.Prompt, "prompt", "p", "", "run one prompt, print the reply and exit (piped input is appended; - reads the prompt from stdin)")
	addResumeFlags(cmd, o)
	completeRootFlags(f, cmd, o)
	fl.BoolVar(&o.Agent, "agent", false, "agent mode: the model may read files and run commands (with -p: run the task, print the final answer)")
	fl.BoolVar(&o.Coder, "coder", false, "coder mode: like --agent, and the model may also write files")
	fl.BoolVar(&o.AutoExec, "agent-auto-exec", false, "let tools write files and run commands without asking (CHATCLI_AGENT_AUTO_EXEC)")
	fl.BoolVar(&o.PlaintextHistory, "plaintext-history", false, "keep the input history in plaintext even when CHATCLI_ENCRYPTION_KEY is set (CHATCLI_HISTORY_PLAINTEXT)")
	o.OneShot.addFlags(fl)
	cmd.PersistentFlags().StringVar(&o.Provider, "provider", "", "provider: openai, anthropic, bedrock, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models or offline (default from LLM_PROVIDER)")
	cmd.PersistentFlags().StringVar(&o.Model, "model", "", "model name (default from the provider's <NAME>_MODEL, e.g. OPENAI_MODEL)")
	cmd.AddCommand(newSessionCmd(f), newConfigCmd(f), newStorageCmd(f, nil), newMemoryCmd(f), newContextCmd(f), newImportCmd(f, nil))
	cmd.AddCommand(newACPCmd(f, nil))
	cmd.AddCommand(newMCPCmd(f, nil))
	cmd.AddCommand(newGatewayCmd(f, nil))
	addCobraCommands(cmd)
	localizeHelp(cmd, f)
	return cmd
}

// oneShotRun runs `chatcli -p PROMPT [--session NAME]`. Without --session
// nothing is saved.
func oneShotRun(ctx context.Context, o *rootOptions) (err error) {
	ctx, stop := interruptible(ctx)
	defer stop()
	if strings.TrimSpace(o.Prompt) == "" {
		return i18n.Errorf("%w: -p needs a prompt", errFlags)
	}
	if err := o.OneShot.check(); err != nil {
		return err
	}
	if o.Prompt, err = oneShotPrompt(o.Prompt, o.f.streams); err != nil {
		return err
	}
	if err := promptMode(o); err != nil {
		return err
	}
	c, err := o.f.config(o.Provider, o.Model)
	if err != nil {
		return err
	}
	if o.OneShot.Timeout > 0 {
		c.RequestTimeout = o.OneShot.Timeout
	}
	c.MaxTokens = o.OneShot.MaxTokens
	keeps := o.Session != "" || o.Resume != "" || o.Name != "" || o.Continue
	c.Transcript = c.Transcript && keeps // without a session nothing is kept
	c.Agent.AutoExec = c.Agent.AutoExec || o.AutoExec
	o.f.machineNotices = o.OneShot.JSON || o.OneShot.StreamJSON
	e, err := o.f.engine(c)
	if err != nil {
		return err
	}
	var reply message.Message
	saved := ""
	rep := newOneShotReport(o.OneShot, o.f.streams.Out)
	if rep != nil {
		rep.attach(e)
		defer func() { rep.finish(e, reply.Content, saved, err) }() // after the Close below
	}
	if keeps {
		if _, err := o.resumeInto(ctx, e, c, nil); err != nil {
			return quietly(err)
		}
		// The session's file is brought up to date on the way out (the
		// turn itself went to its journal); a continued autosave is
		// replaced by a new one holding the turn.
		defer func() {
			saved = e.Bound()
			name, cerr := e.Close(e.Supersedes() != "")
			if cerr != nil {
				err = errors.Join(err, cerr)
			}
			if name != "" {
				saved = name
			}
			o.f.reportSaved(c.Home, name)
		}()
	}
	if err := startMode(e, o); err != nil {
		return err
	}
	reply, err = oneShotTurn(ctx, o, e, c, rep)
	return err
}

// replRun starts the REPL: a line editor on a terminal, script mode
// otherwise.
func replRun(ctx context.Context, o *rootOptions) error {
	if o.OneShot.JSON || o.OneShot.StreamJSON {
		return i18n.Errorf("%w: --json and --stream-json need -p", errFlags)
	}
	c, err := o.f.config(o.Provider, o.Model)
	if err != nil {
		return err
	}
	if o.OneShot.Timeout > 0 {
		c.RequestTimeout = o.OneShot.Timeout
	}
	c.Agent.AutoExec = c.Agent.AutoExec || o.AutoExec
	o.f.permit = repl.NewPermit(nil, o.f.streams.Err) // given the editor below, on a terminal
	e, err := o.f.engine(c)
	if err != nil {
		return err
	}
	s := o.f.streams
	term, out := s.terminal(c, o.OneShot.NoAnim, o.OneShot.Raw)
	if _, err := o.resumeInto(ctx, e, c, term.reply()); err != nil {
		return quietly(err)
	}
	if err := startMode(e, o); err != nil {
		return err
	}
	lang := o.f.lang() // before the retention pass notes something in it
	// The retention pass: its one-line summary usually comes before the
	// banner; the REPL never waits long for it, and it is let finish on exit.
	done := retention.Background(ctx, c.Home, retention.FromConfig(c), lang, func(line string) { o.f.note(line) })
	defer waitAtMost(done, retentionExitWait)
	waitAtMost(done, retentionStartWait)
	opts := repl.Options{Engine: e, In: s.In, Out: out, Err: s.Err, Banner: banner(lang, e.Provider()), Autosave: c.Autosave, Config: &c,
		Class: scriptClass, Pick: func() (string, error) { return o.f.pick(ctx, e, c.Home) }, OnSaved: func(name string) { o.f.noteUsed(c.Home, name, "") },
		Progress: term.progress(), Reply: term.reply(), StylePrompt: term.prompt,
		Lang: lang, Switch: o.f.switcher(c), Width: o.f.tableWidth, ErrWidth: o.f.errWidth}
	var showMu sync.Mutex
	show := func(text string) { showMu.Lock(); fmt.Fprintln(s.Err, text); showMu.Unlock() }
	link := newHubLink(c.Home, lang, func(text string) { show(text) })
	opts.Hub = link
	defer link.Leave()
	if s.InTTY && s.OutTTY {
		if c.HistoryErr != nil {
			return c.HistoryErr // the line editor keeps the history under that cap
		}
		env := &command.Env{Engine: e}
		ed, err := newEditor(o.f.warn, lang, editor.Config{In: s.In, Out: s.Out, HistoryFile: historyFile(o.f.warn, lang, e, c, c.HistoryPlaintext || o.PlaintextHistory), HistoryMax: c.HistoryMax, HistoryMaxBytes: c.HistoryMaxBytes,
			HistorySeed: chatcliHistory(c), HistoryKey: c.EncryptionKey, HistoryPlaintext: c.HistoryPlaintext || o.PlaintextHistory,
			Complete: func(line string) []string { return command.Complete(env, line) },
			Note:     func(cand string) string { return command.CompletionNote(env, cand) }, Lang: lang})
		if err != nil {
			return err
		}
		if n := ed.Seeded(); n > 0 {
			o.f.note(lang.Sprintf("took in %d lines of ChatCLI's input history (%s)", n, editor.SeedFileName))
		}
		opts.Reader = editorReader{ed}
		show = ed.Println // above the line being edited
		o.f.permit.SetLang(lang)
		o.f.permit.SetAsk(func(ctx context.Context, q string) (string, error) {
			term.spin.Stop()                                   // the question replaces the spinner
			term.flush()                                       // and comes after the reply's text
			return ed.ReadKey(ctx, q, []string{"y", "n", "a"}) // one key answers
		})
		opts.Confirm = func(q string) bool { // through the editor: an answer typed ahead is taken
			line, err := ed.ReadLine(ctx, lang.Sprintf("%s [y/N] ", q))
			return err == nil && lang.Agrees(line)
		}
		if f, ok := s.In.(*os.File); ok {
			opts.WatchKeys = repl.EscCancels(f, ed.TypeAhead) // keys typed during a turn reach the next prompt
		}
	}
	if thread := o.f.file.Getenv(o.f.getenv)("CHATCLI_HUB"); thread != "" {
		if err := link.Join(thread); err != nil {
			o.f.warn(lang.Sprintf("CHATCLI_HUB=%s not joined: %v", thread, lang.Error(err, nil)))
		}
	}
	return repl.Run(ctx, opts)
}

// chatcliHistory is ChatCLI's input history in the working folder, offered
// to a chatcli history that does not exist yet; "" when HISTORY_FILE is set
// (then that is the history, as in ChatCLI).
func chatcliHistory(c config.Config) string {
	if c.HistoryFileSet() {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return filepath.Join(wd, editor.SeedFileName)
}

// scriptClass is the class script mode keeps for its failed lines: the exit
// status of errorClass, except 0 for errors of no particular class.
func scriptClass(err error) int {
	if c := errorClass(err); c != exitError {
		return c
	}
	return 0
}

// historyFile is the input history file the line editor keeps: c's, or
// "" (with a warning) when the store lets nothing be written on its own
// (session.Store.AutoWriteRefusal): under a key that did not open its
// sealed sessions, or in plaintext in an encrypted store without a key,
// unless plaintext history was asked for (plaintext).
func historyFile(warn func(string), lang *i18n.Printer, e *conversation.Engine, c config.Config, plaintext bool) string {
	st := e.Store()
	if c.HistoryFile == "" || st == nil {
		return c.HistoryFile
	}
	err := st.AutoWriteRefusal()
	if err == nil || (plaintext && errors.Is(err, session.ErrStoreEncrypted)) {
		return c.HistoryFile
	}
	warn(lang.Sprintf("%v; input history is off for this run", err))
	return ""
}

// newEditor starts the line editor. A damaged history file is moved aside
// to <file>.broken (never deleted) and an unusable one skipped, each with a
// warning: the input history never keeps the REPL from starting.
func newEditor(warn func(string), lang *i18n.Printer, cfg editor.Config) (*editor.Editor, error) {
	ed, err := editor.New(cfg)
	if err == nil {
		return ed, nil
	}
	if errors.Is(err, editor.ErrCorruptHistory) {
		broken := cfg.HistoryFile + ".broken"
		if rerr := os.Rename(cfg.HistoryFile, broken); rerr == nil {
			warn(lang.Sprintf("%v; moved it to %s and started a new history", err, broken))
			return editor.New(cfg)
		}
	}
	warn(lang.Sprintf("%v; input history is off for this run", err))
	cfg.HistoryFile = ""
	return editor.New(cfg)
}

// editorReader adapts the line editor's Ctrl+C and Esc Esc to the REPL's.
type editorReader struct{ *editor.Editor }

func (r editorReader) ReadLine(ctx context.Context, prompt string) (string, error) {
	line, err := r.Editor.ReadLine(ctx, prompt)
	switch {
	case errors.Is(err, editor.ErrInterrupt):
		return "", repl.ErrInterrupt
	case errors.Is(err, editor.ErrDoubleEsc):
		return "", repl.ErrRewindMenu
	}
	return line, err
}
