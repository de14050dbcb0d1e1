package conversation

import (
	"context"
	"errors"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
	ctxwindow "github.com/chatcli/chatcli/internal/window"
)

// AutosavePrefix starts the names of sessions saved automatically on exit.
const AutosavePrefix = "autosave-"

// Engine holds one live conversation. It is not safe for concurrent use;
// each surface owns its engine.
type Engine struct {
	store    *session.Store
	provider provider.Provider
	now      func() time.Time
	notify   func(string)
	lang     *i18n.Printer // the language of the notices; nil is English

	history []message.Message
	// bound is the session name turns are written through to, "" when
	// unbound; sess is its last saved or loaded state (header and unknown
	// members, which are kept on rewrite).
	bound string
	sess  *session.Session
	// seen is the bound file's header as this engine last read or wrote
	// it; a different revision means another process wrote the file.
	seen session.Header
	// base is the bound file's history as this engine last read or wrote
	// it: the common part when two processes' changes are merged.
	base []message.Message
	// dirty is true when the live history holds content saved nowhere.
	dirty bool

	// checkpoints are the states before each LLM call, oldest first.
	checkpoints []rewind.Checkpoint
	// hashes keeps the identity hashes of the history, so each message is
	// hashed once (journal.Hashes checks what changed).
	hashes journal.Hashes
	// requests keeps message.Request of history between requests.
	requests requestCache
	// valid validates history as it grows (message.Checker).
	valid message.Checker
	// modes finds the last mode message of history (modeScan).
	modes modeScan
	// used sums the usage of every request sent (Usage).
	used provider.Usage

	// Search indexes kept between queries.
	transcriptCache, sessionsCache SearchCache

	// contextWindow overrides the model's context size (tokens); usageRatio
	// corrects token estimates by what the provider last reported.
	contextWindow int
	usageRatio    float64
	// learned is the window (tokens) a refusal of the current provider
	// taught this process, 0 before one; windows keeps such windows across
	// processes, and remembered is what it held for the current provider.
	learned    int
	windows    *ctxwindow.Memory
	remembered *int

	// onBind hears binding changes; announced is the last name it heard.
	onBind    func(string)
	announced string
	// onSaved hears the sessions made without binding; onRename renames.
	onSaved  func(string)
	onRename func(old, new string)

	// journalDir is where journals live, "" when the journal is off;
	// journal is the open journal of sess.TranscriptID, nil until needed.
	journalDir string
	journal    *journal.Journal
	// fileBytes is the size of the bound file as last written or read
	// (snapshot policy, snapshot.go); mustWrite makes the next
	// write-through write the file: a message's meta changed after it was
	// journalled (meta is not journalled again), or a snapshot was asked
	// for and could not be written; pendingFork names
	// the conflict fork a journal commit made of this side (conflict.go).
	fileBytes   int64
	mustWrite   bool
	pendingFork string
	// mirror is what the last Mirror wrote (mirror.go).
	mirror mirrorState
	// noWriteThrough is Options.NoWriteThrough (writethrough.go);
	// fileJournal is the transcript_id the bound file named when this
	// engine last read or wrote it; sharedPos the position in that
	// journal this engine had read when goPrivate copied it; snapshotting
	// is set while snapshot writes.
	// wroteFile is set when this engine wrote the bound file last (not
	// loaded it).
	noWriteThrough, snapshotting, wroteFile bool
	fileJournal                             string
	sharedPos                               journal.Pos
	// journalFailure is the kind of the journal failure last announced,
	// "" once a write landed (journal.go).
	journalFailure string

	// mode is ModeChat, ModeAgent or ModeCoder; toolbox runs the tools of
	// the last two (see agent.go).
	mode     string
	toolbox  Toolbox
	maxSteps int
	onTool   func(ToolActivity)
	// onToolStart hears each tool call before it runs (SetOnToolStart).
	onToolStart func(message.ToolCall)
	// onRetried hears each retry the provider makes, after its notice
	// (SetOnRetried).
	onRetried func()
	// code keeps file checkpoints (see code.go); codeFailed is set once a
	// file checkpoint failed (reported once).
	code       CodeCheckpoints
	codeFailed bool
	// supersedes is the machine-made session this unbound conversation
	// continues (resume.go).
	supersedes string
	// supplement adds system content to each request and expand expands
	// a prompt's references (supplement.go).
	supplement Supplement
	expand     func(ctx context.Context, prompt string) (string, []message.Image, error)
}

// Options configure a new Engine.
type Options struct {
	Store    *session.Store
	Provider provider.Provider
	// Notify receives warnings and notices (repairs, adoptions) as one line
	// each; nil discards them.
	Notify func(string)
	// Lang is the language of the engine's own notices; nil is English.
	Lang *i18n.Printer
	// Now is the clock for autosave names; nil means time.Now.
	Now func() time.Time
	// JournalDir is the folder of transcript journals; "" turns the
	// journal off (CHATCLI_SESSION_TRANSCRIPT=false).
	JournalDir string
	// ContextWindow is the model's context size in tokens; 0 means the
	// window Windows remembers for the model, else DefaultContextWindow.
	ContextWindow int
	// Windows keeps the windows learned from providers' refusals across
	// processes; nil keeps them for the engine's life only.
	Windows *ctxwindow.Memory
	// OnBind, when set, is told the bound session's name each time it
	// changes ("" when unbound), so a surface can mark the session open
	// for other processes (retention never removes an open session).
	OnBind func(name string)
	// OnSaved, when set, is told the name of each session the engine makes
	// without binding to it: an autosave (at exit, or before a load or new
	// replaces unsaved work), a new mirror, a conflict fork; OnRename of
	// each rename it makes. A surface records where they were made.
	OnSaved  func(name string)
	OnRename func(old, new string)
	// Toolbox runs the tools of agent and coder modes; nil leaves only
	// chat mode.
	Toolbox Toolbox
	// MaxSteps caps the requests of one agent or coder turn; 0 means
	// DefaultMaxSteps.
	MaxSteps int
	// OnTool, when set, hears each tool call after it ran.
	OnTool func(ToolActivity)
	// CodeCheckpoints, when set, keeps file checkpoints of the workspace:
	// one is taken with each checkpoint of an agent or coder turn.
	CodeCheckpoints CodeCheckpoints
	// Supplement, when set, adds system content before the history of
	// every request, never stored in it (supplement.go).
	Supplement Supplement
	// Expand, when set, rewrites each prompt before it is stored and sent
	// (the @ references), giving the images it attaches; its error fails
	// the turn with nothing stored.
	Expand func(ctx context.Context, prompt string) (string, []message.Image, error)
	// NoWriteThrough is CHATCLI_SESSION_WRITETHROUGH=false: a bound session
	// is written only at save, detach, load, new, fork and exit, and other
	// windows' turns are not adopted (writethrough.go).
	NoWriteThrough bool
}

// New returns an engine with an empty, unbound conversation.
func New(o Options) *Engine {
	e := &Engine{store: o.Store, provider: o.Provider, notify: o.Notify, now: o.Now, sess: &session.Session{},
		journalDir: o.JournalDir, contextWindow: o.ContextWindow, windows: o.Windows, onBind: o.OnBind,
		onSaved: o.OnSaved, onRename: o.OnRename,
		mode: ModeChat, toolbox: o.Toolbox, maxSteps: o.MaxSteps, onTool: o.OnTool, code: o.CodeCheckpoints,
		supplement: o.Supplement, expand: o.Expand, lang: o.Lang, noWriteThrough: o.NoWriteThrough}
	e.setJournalDir(o.JournalDir)
	if e.maxSteps <= 0 {
		e.maxSteps = DefaultMaxSteps
	}
	if e.notify == nil {
		e.notify = func(string) {}
	}
	if e.now == nil {
		e.now = time.Now
	}
	return e
}

// setJournalDir turns the journal on in dir ("" turns it off). The store
// is told where journals are when it does not know yet, so that what it
// loads includes the journal records after each file's position.
func (e *Engine) setJournalDir(dir string) {
	e.journalDir = dir
	if dir != "" && e.store != nil && e.store.JournalDir() == "" {
		e.store.SetJournalDir(dir)
	}
}

// SetNotify replaces the receiver of notices (see Options.Notify; nil
// discards them) and returns the previous one, so a surface can collect the
// notices of one call and restore it.
func (e *Engine) SetNotify(fn func(string)) (previous func(string)) {
	previous = e.notify
	if fn == nil {
		fn = func(string) {}
	}
	e.notify = fn
	return previous
}

// Notice tells the notifier SetNotify set last (Options.Notify at first)
// about text: what the engine's suppliers and reference expansion report
// reaches the same receiver as the engine's own notices.
func (e *Engine) Notice(text string) { e.notify(text) }

// SetOnTool replaces the receiver of tool activity (see Options.OnTool;
// nil for none) and returns the previous one, so a surface can show the
// tool calls of one turn as they run and restore it.
func (e *Engine) SetOnTool(fn func(ToolActivity)) (previous func(ToolActivity)) {
	previous, e.onTool = e.onTool, fn
	return previous
}

// SetOnToolStart sets the receiver told of each tool call just before it
// runs (a surface shows that it runs; OnTool hears it after), and returns
// the previous one; nil tells no one.
func (e *Engine) SetOnToolStart(fn func(message.ToolCall)) (previous func(message.ToolCall)) {
	previous, e.onToolStart = e.onToolStart, fn
	return previous
}

// History returns the live history; the caller must not modify it.
func (e *Engine) History() []message.Message { return e.history }

// Bound is the name of the bound session, "" when unbound.
func (e *Engine) Bound() string { return e.bound }

// Provider is the provider turns go to.
func (e *Engine) Provider() provider.Provider { return e.provider }

// SetProvider switches the provider for later turns (and forgets what the
// previous one taught about token counts and its window).
func (e *Engine) SetProvider(p provider.Provider) {
	e.provider, e.usageRatio, e.learned, e.remembered = p, 0, 0, nil
}

// Store is the session store the engine writes to.
func (e *Engine) Store() *session.Store { return e.store }

// Dirty reports whether the live history holds content saved nowhere: not
// in the bound file, nor in the journal the file is a snapshot of.
func (e *Engine) Dirty() bool { return e.dirty && !(e.bound != "" && e.inJournal()) }

// Turn runs one chat turn for prompt, streaming the reply through onDelta
// (may be nil). It returns the assistant message. In agent and coder modes
// the turn goes on while the model calls tools (see agentLoop) and returns
// the final reply; one checkpoint is taken per turn, before its first
// request. On failure (a
// *provider.Error, or ctx's error) the prompt stays marked unanswered and,
// when bound, the history is still written through; a write-through failure
// is returned joined with the turn's own error.
func (e *Engine) Turn(ctx context.Context, prompt string, onDelta func(string)) (message.Message, error) {
	var images []message.Image
	if e.expand != nil {
		p, imgs, err := e.expand(ctx, prompt)
		if err != nil {
			return message.Message{}, i18n.Errorf("%w; the prompt was not sent", err)
		}
		prompt, images = p, imgs
	}
	user := message.Message{Role: message.RoleUser, Content: message.ValidUTF8(prompt), Meta: e.modeMeta(), Images: images}
	if _, err := e.adopt(); err != nil {
		// The bound file cannot be read: keep the prompt, unsent, so that it
		// is saved elsewhere on exit (see Close).
		user.Meta.Unanswered = true
		e.history, e.dirty = append(e.history, user), true
		e.record(journal.ReasonSync)
		return message.Message{}, i18n.Errorf("%w; the prompt was not sent and is kept", err)
	}
	reason := journal.ReasonSync
	if e.repair() { // the checkpoint holds a valid history
		reason = journal.ReasonRepair
	}
	e.checkpoint(prompt)
	if e.needsModeMessage() { // a new or loaded history: say the mode first
		e.history = append(e.history, e.modeMessage())
	}
	e.history = append(e.history, user)
	e.dirty = true
	e.record(reason) // the prompt is on disk before the request
	if err := e.autoCompact(ctx); err != nil {
		e.markUnanswered(len(e.history) - 1)
		return message.Message{}, errors.Join(err, e.writeThrough())
	}
	if err := e.valid.Validate(e.history); err != nil { // Repair's guarantee, checked
		return message.Message{}, errors.Join(err, e.writeThrough())
	}
	if e.mode != ModeChat {
		return e.agentLoop(ctx, onDelta)
	}
	sent, resp, err := e.chat(ctx, nil, onDelta)
	if err == nil && resp.Message.Content == "" && len(resp.Message.ToolCalls) == 0 {
		err = &provider.Error{Provider: e.provider.Name(), Kind: provider.KindServer, Detail: "the reply was empty"}
	}
	if err != nil {
		e.markUnanswered(latestUser(e.history)) // compaction keeps the prompt last
		return message.Message{}, errors.Join(err, e.writeThrough())
	}
	e.learnUsage(sent, resp.Usage)
	reply := resp.Message
	reply.Role, reply.Meta = message.RoleAssistant, e.replyMeta(reply.Meta)
	reply.Content = message.ValidUTF8(reply.Content)
	e.history = append(e.history, reply)
	e.record(journal.ReasonSync)
	return reply, e.writeThrough()
}

// markUnanswered marks the prompt at index i as unanswered.
func (e *Engine) markUnanswered(i int) {
	m := &e.history[i]
	meta := message.Meta{}
	if m.Meta != nil {
		meta = *m.Meta
	}
	meta.Unanswered = true
	m.Meta = &meta
	e.mustWrite = true
}

// repair applies message.Repair to the live history, reports each fix and
// says whether it changed anything.
func (e *Engine) repair() bool {
	if e.valid.Validate(e.history) == nil {
		return false
	}
	h, fixes := message.Repair(e.history)
	for _, f := range fixes {
		e.notifyf("repaired: %s", f.String())
	}
	if len(fixes) > 0 {
		e.history, e.dirty = h, true
	}
	return len(fixes) > 0
}

// saveTo writes the live history under name, keeping the unknown members of
// the session last loaded or saved, and marks the history saved. The bound
// session is written only if it is still at the revision last seen
// (session.ErrConflict otherwise: writeThrough reconciles); another name is
// replaced whatever it holds (the caller asked).
func (e *Engine) saveTo(name string) error {
	return e.writeAs(name, func(s *session.Session) error {
		if name == e.bound {
			return e.store.SaveIf(name, s, e.seen.Revision)
		}
		return e.store.Save(name, s)
	})
}

// createAs writes the live history as the new session name, never
// replacing an existing one (session.ErrExists).
func (e *Engine) createAs(name string) error {
	return e.writeAs(name, func(s *session.Session) error { return e.store.Create(name, s) })
}

// writeAs writes the live history, with the session's header and
// checkpoints, through write, and records the result as the file last seen.
func (e *Engine) writeAs(name string, write func(*session.Session) error) error {
	s := e.sess.Clone()
	s.History = e.history
	cps, err := rewind.Encode(e.checkpoints)
	if err != nil {
		return err
	}
	s.Checkpoints = cps
	s.JournalPos = e.journalPosOf(s)
	if err := e.landed(write(s)); err != nil {
		return err
	}
	e.sess, e.dirty, e.base, e.mustWrite, e.fileJournal, e.wroteFile = s, false, s.History, false, s.TranscriptID, true
	e.seen = session.Header{Revision: s.Revision, UpdatedAt: s.UpdatedAt}
	if h, err := e.store.StatFile(name); err == nil {
		e.fileBytes = h.SizeBytes
	}
	return nil
}

// adopt brings in what other windows wrote to the bound session since this
// engine last read or wrote it: the records they committed to its journal
// (their messages and checkpoints), or a newer file written without the
// journal, and says whether anything changed. The check reads only the file's header, without the lock: a
// write that lands after it is caught by the conditional save of the turn.
// Revisions alone decide (two chatcli writes never share one); updated_at
// decides only for files written without a revision. With no unsaved live
// changes the newer version simply becomes live; otherwise the two are
// reconciled (merged, or this side kept as a conflict fork).
func (e *Engine) adopt() (bool, error) {
	if e.bound == "" || e.noWriteThrough {
		return false, nil
	}
	h, err := e.store.StatFile(e.bound)
	if err == nil && h.Revision == e.seen.Revision && (h.Revision != 0 || h.UpdatedAt.Equal(e.seen.UpdatedAt)) {
		return e.adoptJournal(), nil // the file is as this window left it; other windows' turns are in the journal
	}
	if err == nil && e.journalPeer(h) { // a snapshot another window wrote of this journal
		e.seen = session.Header{Revision: h.Revision, UpdatedAt: h.UpdatedAt}
		e.sess.Revision, e.sess.JournalPos, e.fileBytes = h.Revision, h.JournalPos, h.SizeBytes
		return e.adoptJournal(), nil
	}
	if err == nil && e.dirty {
		_, err := e.reconcile()
		return true, err
	}
	var other *session.Session
	if err == nil {
		other, err = e.store.Load(e.bound)
	}
	if errors.Is(err, session.ErrNotFound) {
		if e.seen.Revision > 0 {
			if to := e.renamedTo(); to != "" { // never recreate the old name sharing one journal with the new
				e.notifyf("session %q was renamed to %q elsewhere; this window follows it", e.bound, to)
				e.bound = to
				e.announceBinding()
				return e.adopt()
			}
			e.notifyf("session %q was deleted elsewhere; this turn writes it again", e.bound)
			e.forgetFile()
		}
		return false, nil // created at the first write
	}
	if err != nil {
		return false, err
	}
	e.notifyf("adopted a newer version of session %q (%d messages) written elsewhere", e.bound, len(other.History))
	e.take(other)
	return true, nil
}

// renamedTo returns the name of the one session that now holds the bound
// session's journal (another window renamed it), "" when none or several
// do.
func (e *Engine) renamedTo() string {
	id := e.sess.TranscriptID
	if id == "" {
		return ""
	}
	list, err := e.store.List()
	if err != nil {
		return ""
	}
	found := ""
	for _, h := range list {
		if h.Err == nil && h.TranscriptID == id && h.Name != e.bound {
			if found != "" {
				return ""
			}
			found = h.Name
		}
	}
	return found
}

// nonSystem counts the messages that are not system messages.
func nonSystem(h []message.Message) int {
	n := 0
	for _, m := range h {
		if m.Role != message.RoleSystem {
			n++
		}
	}
	return n
}

// saved tells OnSaved about session name, made without binding.
func (e *Engine) saved(name string) {
	if e.onSaved != nil && name != "" {
		e.onSaved(name)
	}
}

// announceBinding tells OnBind about a change of the bound session; the
// binding verbs defer it.
func (e *Engine) announceBinding() {
	if e.onBind != nil && e.bound != e.announced {
		e.announced = e.bound
		e.onBind(e.bound)
	}
}
