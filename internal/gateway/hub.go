package gateway

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/hub"
	"github.com/chatcli/chatcli/internal/i18n"
)

// hubQueue is how many hub events wait for a chat before more are dropped.
const hubQueue = 64

// hubLink is a principal's membership of a hub thread: the events are sent
// to its chat in order, through the Replier of its latest message.
type hubLink struct {
	m      *hub.Member
	events chan string
	done   chan struct{}
	// mu guards closed: an event relayed as the member leaves is dropped.
	mu     sync.Mutex
	closed bool
}

// queue queues text for the chat, reporting false when it is dropped
// because the chat is behind.
func (l *hubLink) queue(text string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return true
	}
	select {
	case l.events <- text:
		return true
	default:
		return false
	}
}

// joinHub makes c a member of thread, leaving any other first. Events are
// sent to r's chat until leaveHub.
func (g *Gateway) joinHub(c *conv, thread string, r Replier) string {
	if g.o.Hub == nil {
		return g.o.Lang.Sprintf("The Conversation Hub is not available here.")
	}
	g.leaveHub(c)
	l := &hubLink{events: make(chan string, hubQueue), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for text := range l.events {
			if err := r.Reply(context.Background(), text); err != nil {
				g.o.Log(fmt.Sprintf("%s: hub %s: %v", c.p, thread, err))
			}
		}
	}()
	var joined hub.Event
	l.m = g.o.Hub.Join(thread, c.p.String(), func(ev hub.Event) {
		if ev.Kind == hub.KindJoined {
			joined = ev
		}
		if text := EventTextIn(g.o.Lang, ev, c.p.String()); text != "" && !l.queue(text) {
			g.o.Log(g.o.Lang.Sprintf("%s: hub %s: an event was dropped (the chat is behind)", c.p, thread))
		}
	})
	c.hub = l
	return g.o.Lang.Sprintf("Joined hub thread %q (%d members, %d recent turns). The turns of its other members are shown here as they end; /hub leave stops that.",
		thread, l.m.Members(), len(joined.Backlog))
}

// leaveHub ends c's membership, if any.
func (g *Gateway) leaveHub(c *conv) {
	if c.hub == nil {
		return
	}
	c.hub.m.Leave()
	c.hub.mu.Lock()
	c.hub.closed = true
	close(c.hub.events)
	c.hub.mu.Unlock()
	<-c.hub.done
	c.hub = nil
}

// hubCommand runs "/hub", "/hub join NAME" or "/hub leave".
func (g *Gateway) hubCommand(c *conv, f []string, r Replier) string {
	switch {
	case len(f) == 3 && f[1] == "join":
		return g.joinHub(c, f[2], r)
	case len(f) == 2 && f[1] == "leave" && c.hub != nil:
		name := c.hub.m.Thread()
		g.leaveHub(c)
		return g.o.Lang.Sprintf("Left hub thread %q.", name)
	case len(f) <= 2 && c.hub != nil:
		return g.o.Lang.Sprintf("In hub thread %q with %d members.", c.hub.m.Thread(), c.hub.m.Members())
	case len(f) <= 2:
		return g.o.Lang.Sprintf("In no hub thread; /hub join NAME joins one.")
	}
	return g.o.Lang.Sprintf("usage: /hub [join NAME | leave]")
}

// EventText is how a hub event reads in a chat or a terminal, "" for one
// not shown; self is the member it is shown to.
func EventText(ev hub.Event, self string) string { return EventTextIn(nil, ev, self) }

// EventTextIn is EventText in lang (nil: English); the prompts and replies
// relayed stay as they were written.
func EventTextIn(lang *i18n.Printer, ev hub.Event, self string) string {
	switch ev.Kind {
	case hub.KindJoined:
		var b strings.Builder
		for _, t := range ev.Backlog {
			b.WriteString(turnText(lang, ev.Thread, t) + "\n\n")
		}
		return strings.TrimSpace(b.String())
	case hub.KindTurn:
		return turnText(lang, ev.Thread, *ev.Turn)
	case hub.KindRotated:
		if ev.From == self {
			return ""
		}
		return lang.Sprintf("[hub %s] %s started another conversation; earlier turns are no longer relayed.", ev.Thread, ev.From)
	}
	return ""
}

// turnText shows another member's turn: its prompt on one line, then its
// reply under a line that says whose it is, so it never reads as this
// member's own reply.
func turnText(lang *i18n.Printer, thread string, t hub.Turn) string {
	return lang.Sprintf("[hub %s] %s asked: %s\n[hub %s] reply to %s:\n%s", thread, t.From, oneLine(t.Prompt), thread, t.From, t.Reply)
}

// oneLine is s with its line breaks as spaces, cut to 300 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:299]) + "…"
	}
	return s
}
