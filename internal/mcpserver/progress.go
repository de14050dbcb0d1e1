package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery is how often a turn that streams nothing new still sends
// a progress notification, so that a client resetting its request timeout
// on progress (the TypeScript SDK's resetTimeoutOnProgress; its default
// timeout is 60 s) waits for a long turn instead of cancelling it.
var progressEvery = 10 * time.Second

// progressGap is the least time between two notifications sent for
// streamed text.
const progressGap = 500 * time.Millisecond

// progress sends notifications/progress for one tools/call whose request
// carried a progressToken (MCP 2025-06-18, "Progress"): the number of
// reply characters received so far, at most every progressGap while the
// reply streams and every progressEvery while it does not. Progress
// always increases, as the specification asks.
type progress struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token any

	mu    sync.Mutex
	chars int
	sent  float64   // the last progress value sent
	last  time.Time // when it was sent
	// lastText is when progress was last sent for streamed text.
	lastText time.Time
	stop     chan struct{}
	done     chan struct{}
}

// startProgress starts reporting the progress of req; it returns the
// function to hear streamed text with and the one to call when the turn
// ends. Without a progressToken both do nothing.
func startProgress(ctx context.Context, req *mcp.CallToolRequest) (onDelta func(string), stop func()) {
	if req == nil || req.Params == nil || req.Session == nil || req.Params.GetProgressToken() == nil {
		return func(string) {}, func() {}
	}
	p := &progress{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken(), stop: make(chan struct{}), done: make(chan struct{})}
	go p.beat()
	return p.delta, func() { close(p.stop); <-p.done }
}

func (p *progress) delta(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.chars += len([]rune(s))
	if time.Since(p.lastText) >= progressGap {
		p.send("receiving the reply")
		p.lastText = p.last
	}
}

// beat sends a notification every progressEvery until the turn ends.
func (p *progress) beat() {
	defer close(p.done)
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.mu.Lock()
			if time.Since(p.last) >= progressEvery/2 {
				p.send("waiting for the model")
			}
			p.mu.Unlock()
		}
	}
}

// send notifies the client; p.mu is held. A failed notification is not
// the turn's failure.
func (p *progress) send(what string) {
	v := max(float64(p.chars), p.sent+1)
	p.sent, p.last = v, time.Now()
	_ = p.ss.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: v,
		Message: fmt.Sprintf("%s: %d characters so far", what, p.chars)})
}
