package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/hub"
	"github.com/chatcli/chatcli/internal/i18n"
)

// DefaultTypingEvery is how often the typing indicator is sent again while
// a turn runs (Telegram shows one for 5 seconds).
const DefaultTypingEvery = 4 * time.Second

// Options configure a Gateway.
type Options struct {
	// NewEngine builds the engine of a principal's conversation (the
	// store, provider and journal of every surface).
	NewEngine func() (*conversation.Engine, error)
	// State keeps bindings and mirror names across restarts.
	State *State
	// Allow is each channel's allow-list, by channel name; a channel
	// missing here allows nobody.
	Allow map[string]AllowList
	// Mirror turns the gw-<channel>-<user> mirrors of unbound
	// conversations on.
	Mirror bool
	// OnMirror, when set, is told each mirror's name before it is written
	// (the surface marks it open, so retention leaves it alone).
	OnMirror func(name string)
	// Log receives notices, one line each; nil discards them.
	Log func(string)
	// Lang is the language of the notices (nil: English).
	Lang *i18n.Printer
	// Now is the clock of new mirror names; nil is time.Now.
	Now func() time.Time
	// TypingEvery is the typing indicator's period; 0 is
	// DefaultTypingEvery.
	TypingEvery time.Duration
	// Hub, when set, is the Conversation Hub chats join with /hub join;
	// HubThread, when not "", is the thread each principal joins at its
	// first message (CHATCLI_HUB).
	Hub       *hub.Relay
	HubThread string
}

// Gateway routes channel messages to one conversation per principal.
// Handle may be called from several goroutines; each principal's
// messages are served one at a time, in the order Handle is called.
type Gateway struct {
	o Options

	mu      sync.Mutex
	convs   map[Principal]*conv
	ignored map[Principal]bool
	// sessions holds a lock per bound session, taken for a turn: two
	// principals of this process bound to one session take turns, each
	// adopting the other's last turn before its own (conversation.Engine
	// adopts what another engine wrote).
	sessions map[string]*sync.Mutex
}

// conv is one principal's conversation.
type conv struct {
	p  Principal
	mu sync.Mutex // held while a message is served
	e  *conversation.Engine
	ps PrincipalState
	// hub is the principal's hub membership, nil when none; hubDeclined
	// is set once HubThread was joined, so that /hub leave stays left.
	hub         *hubLink
	hubDeclined bool
}

// hubEpoch is the epoch of c's hub thread, 0 when c is in none.
func (c *conv) hubEpoch() int {
	if c.hub == nil {
		return 0
	}
	return c.hub.m.Epoch()
}

// New returns a Gateway; no engine is built before a principal's first
// message.
func New(o Options) *Gateway {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TypingEvery <= 0 {
		o.TypingEvery = DefaultTypingEvery
	}
	return &Gateway{o: o, convs: map[Principal]*conv{}, ignored: map[Principal]bool{}, sessions: map[string]*sync.Mutex{}}
}

// Handle serves one message: a chat command or a turn, answered through r.
// Each principal's messages are served one at a time, and the turns of
// principals bound to one session one at a time too.
// A sender the channel's allow-list does not name gets nothing (logged
// once). When ctx ends during a turn (SIGTERM) the turn is cancelled, its
// prompt kept marked unanswered, and nothing is sent; Handle then returns
// ctx.Err(). Other errors are those of r (the reply could not be sent).
func (g *Gateway) Handle(ctx context.Context, m Message, r Replier) error {
	if !g.o.Allow[m.Principal.Channel].Allows(m) {
		g.ignore(m)
		return nil
	}
	text := strings.TrimSpace(m.Text)
	if text == "" {
		return nil
	}
	c, err := g.conv(m.Principal)
	if err != nil {
		g.o.Log(fmt.Sprintf("%s: %v", m.Principal, err))
		return r.Reply(ctx, g.o.Lang.Sprintf("error: %s", command.ErrorLineIn(g.o.Lang, err)))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hub == nil && g.o.HubThread != "" && !c.hubDeclined {
		c.hubDeclined = true // joined once: /hub leave is then kept
		g.joinHub(c, g.o.HubThread, r)
	}
	if command.IsCommand(text) {
		if f := strings.Fields(text); f[0] == "/hub" {
			return r.Reply(ctx, g.hubCommand(c, f, r))
		}
		out := g.command(ctx, c, text)
		if f := strings.Fields(text); c.hub != nil && len(f) > 1 && f[0] == "/session" && (f[1] == "new" || f[1] == "attach") {
			c.hub.m.Rotate() // another conversation: the backlog is not its
		}
		return r.Reply(ctx, out)
	}
	if b := c.e.Bound(); b != "" {
		l := g.sessionLock(b)
		l.Lock()
		defer l.Unlock()
	}
	return g.turn(ctx, c, text, r)
}

// sessionLock returns the lock of the bound session name.
func (g *Gateway) sessionLock(name string) *sync.Mutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.sessions[name]
	if l == nil {
		l = &sync.Mutex{}
		g.sessions[name] = l
	}
	return l
}

// ignore logs, once per principal, a message from someone not allowed.
func (g *Gateway) ignore(m Message) {
	g.mu.Lock()
	seen := g.ignored[m.Principal]
	g.ignored[m.Principal] = true
	g.mu.Unlock()
	if !seen {
		g.o.Log(g.o.Lang.Sprintf("%s: message from user %s (chat %s) ignored: not on the %s allow-list; later ones are ignored silently",
			m.Principal.Channel, m.Principal.User, m.Chat, m.Principal.Channel))
	}
}

// conv returns p's conversation, opening it at the first message: bound
// again to the session the state file names, or continuing p's mirror.
func (g *Gateway) conv(p Principal) (*conv, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c := g.convs[p]; c != nil {
		return c, nil
	}
	e, err := g.o.NewEngine()
	if err != nil {
		return nil, err
	}
	c := &conv{p: p, e: e, ps: g.o.State.Principal(p)}
	switch {
	case c.ps.Bound != "":
		if _, _, err := e.Attach(c.ps.Bound); err != nil {
			g.o.Log(g.o.Lang.Sprintf("%s: session %q not attached again: %v", p, c.ps.Bound, g.o.Lang.Error(err, nil)))
			c.ps.Bound = ""
		}
	case c.ps.Mirror != "" && e.Store().Exists(c.ps.Mirror):
		if _, err := e.Resume(c.ps.Mirror, false); err != nil {
			g.o.Log(g.o.Lang.Sprintf("%s: mirror %q not continued: %v", p, c.ps.Mirror, g.o.Lang.Error(err, nil)))
			c.ps.Mirror = ""
		}
	}
	if c.ps.Bound == "" && c.ps.Mirror == "" {
		c.ps.Mirror = p.mirrorBase()
		if e.Store().Exists(c.ps.Mirror) { // a state file lost: never overwrite
			c.ps.Mirror = g.nextMirror(p)
		}
	}
	g.convs[p] = c
	return c, g.save(c)
}

// nextMirror names the mirror of p's next conversation.
func (g *Gateway) nextMirror(p Principal) string {
	var b [2]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return p.mirrorBase() + "-" + g.o.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// save writes c's binding and mirror to the state file when they changed.
func (g *Gateway) save(c *conv) error {
	if g.o.State.Principal(c.p) == c.ps {
		return nil
	}
	return g.o.State.SetPrincipal(c.p, c.ps)
}

// mirror keeps the unbound conversation in its mirror; errors are logged
// and returned.
func (g *Gateway) mirror(c *conv) error {
	if !g.o.Mirror || c.e.Bound() != "" || len(c.e.History()) == 0 {
		return nil
	}
	if g.o.OnMirror != nil {
		g.o.OnMirror(c.ps.Mirror)
	}
	err := c.e.Mirror(c.ps.Mirror)
	if err != nil {
		g.o.Log(fmt.Sprintf("%s: %v", c.p, err))
	}
	return err
}

// turn runs text as one turn and answers with the reply, the engine's
// notices and a warning when the conversation could not be kept.
func (g *Gateway) turn(ctx context.Context, c *conv, text string, r Replier) error {
	var notices []string
	prev := c.e.SetNotify(nil)
	c.e.SetNotify(func(line string) { notices = append(notices, line); prev(line) })
	defer c.e.SetNotify(prev)
	stop := g.typing(ctx, r)
	epoch := c.hubEpoch()
	reply, err := c.e.Turn(ctx, text, nil)
	stop()
	if err == nil && c.hub != nil {
		c.hub.m.Publish(epoch, text, reply.Content)
	}
	merr := g.mirror(c)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil && reply.Content == "" && len(reply.ToolCalls) == 0 {
		return r.Reply(ctx, g.o.Lang.Sprintf("error: %s", command.ErrorLineIn(g.o.Lang, i18n.Join(err, merr))))
	}
	out := reply.Content
	for _, n := range notices {
		out += g.o.Lang.Sprintf("\n\nnote: %s", n)
	}
	if err = i18n.Join(err, merr); err != nil {
		out += g.o.Lang.Sprintf("\n\nwarning: %s", command.ErrorLineIn(g.o.Lang, err))
	}
	return r.Reply(ctx, out)
}

// typing shows r's typing indicator until the returned stop is called.
// The first indicator is sent before it returns, so it is shown before the
// turn starts however fast the reply comes; it is repeated every
// TypingEvery while the turn runs.
func (g *Gateway) typing(ctx context.Context, r Replier) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	show := func() {
		if err := r.Typing(ctx); err != nil && ctx.Err() == nil {
			g.o.Log(g.o.Lang.Sprintf("typing indicator: %v", err))
		}
	}
	show()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(g.o.TypingEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				show()
			}
		}
	}()
	return func() { cancel(); <-done }
}

// Close keeps every conversation: a bound one is written through, an
// unbound one mirrored. Errors name the session not written.
func (g *Gateway) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var errs []error
	for _, c := range g.convs {
		c.mu.Lock()
		g.leaveHub(c)
		if c.e.Bound() == "" {
			errs = append(errs, g.mirror(c))
		}
		if _, err := c.e.Close(false); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.p, err))
		}
		c.mu.Unlock()
	}
	return errors.Join(errs...)
}
