package gateway

import (
	"context"
	"fmt"
	"sync"
)

// Handler serves one message; *Gateway is one.
type Handler interface {
	Handle(ctx context.Context, m Message, r Replier) error
}

// MaxRequestBytes bounds the body of a webhook request a channel reads.
const MaxRequestBytes = 1 << 20

// Async serves messages of a webhook channel in the background, so the
// request that brought them is answered at once (Slack and Meta want an
// answer within seconds and redeliver otherwise).
type Async struct {
	ctx  context.Context
	h    Handler
	log  func(string)
	busy sync.WaitGroup
}

// NewAsync returns an Async serving through h under ctx (a turn in flight
// is cut short when ctx ends); failures to reply go to log.
func NewAsync(ctx context.Context, h Handler, log func(string)) *Async {
	return &Async{ctx: ctx, h: h, log: log}
}

// Serve serves m in the background, answering through r.
func (a *Async) Serve(m Message, r Replier) {
	a.busy.Add(1)
	go func() {
		defer a.busy.Done()
		if err := a.h.Handle(a.ctx, m, r); err != nil && a.ctx.Err() == nil {
			a.log(fmt.Sprintf("%s: chat %s: %v", m.Principal.Channel, m.Chat, err))
		}
	}()
}

// Wait waits until every message Serve was given is served.
func (a *Async) Wait() { a.busy.Wait() }
