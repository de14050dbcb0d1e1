package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/hub"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/render"
)

// hubLink is the REPL's Conversation Hub membership (command.Hub): a
// client of the relay chatcli gateway serves at hub.SocketPath(home).
// Events are shown through show as they come, made visible first, in
// lang.
type hubLink struct {
	home, name string
	lang       *i18n.Printer
	show       func(text string)

	mu sync.Mutex
	cl *hub.Client
}

var _ command.Hub = (*hubLink)(nil)

// newHubLink returns the membership of the REPL of this process, named
// "terminal <pid>" in the thread.
func newHubLink(home string, lang *i18n.Printer, show func(string)) *hubLink {
	return &hubLink{home: home, name: fmt.Sprintf("terminal %d", os.Getpid()), lang: lang, show: show}
}

func (l *hubLink) Join(thread string) error {
	l.Leave()
	cl, err := hub.Dial(hub.SocketPath(l.home), thread, l.name, func(ev hub.Event) {
		if text := gateway.EventTextIn(l.lang, ev, l.name); text != "" {
			l.show(render.Visible(text))
		}
	})
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.cl = cl
	l.mu.Unlock()
	return nil
}

func (l *hubLink) client() *hub.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cl
}

func (l *hubLink) Leave() {
	l.mu.Lock()
	cl := l.cl
	l.cl = nil
	l.mu.Unlock()
	if cl != nil {
		cl.Close()
	}
}

func (l *hubLink) Thread() string {
	if cl := l.client(); cl != nil {
		return cl.Thread()
	}
	return ""
}

func (l *hubLink) Epoch() int {
	if cl := l.client(); cl != nil {
		return cl.Epoch()
	}
	return 0
}

func (l *hubLink) Publish(epoch int, prompt, reply string) {
	if cl := l.client(); cl != nil {
		cl.Publish(epoch, prompt, reply)
	}
}

func (l *hubLink) Rotate() {
	if cl := l.client(); cl != nil {
		cl.Rotate()
	}
}
