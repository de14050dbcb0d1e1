package telegram

import (
	"context"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// MaxParallelChats is how many chats are served at the same time; the
// messages of further chats wait for one of them to finish a message.
const MaxParallelChats = 8

// DefaultRecheck is how long Run waits before polling again while
// messages are being served and the last poll brought nothing new: the
// poll asks from the oldest message still being served (see dispatcher),
// so Telegram answers it at once instead of holding it open.
const DefaultRecheck = time.Second

// dispatcher serves the messages of different chats at the same time and
// those of one chat one after another, in the order Telegram numbered
// them.
//
// The offset it keeps (Options.State) and polls from is that of the
// oldest message not yet served: a message is confirmed to Telegram (an
// update is "considered confirmed as soon as getUpdates is called with an
// offset higher than its update_id", Bot API getUpdates) and recorded as
// served only once every message before it was. So a daemon killed with
// messages waiting or in flight is given them again at its next start,
// and a restart never serves one twice: taken ids are not served again
// by this process either, though Telegram returns them to each poll
// until they are confirmed.
type dispatcher struct {
	ctx context.Context
	o   *Options
	bot *tgbotapi.BotAPI

	mu sync.Mutex
	// queues holds each chat's messages not yet served, the first one
	// being served; a chat has a queue only while it has messages.
	queues map[int64][]tgbotapi.Update
	// inflight holds the update ids taken and not yet served.
	inflight map[int]bool
	// next is one past the highest update id taken; saved is the offset
	// last written to the state file.
	next, saved int
	// done is signalled (never blocking) each time a message is served.
	done chan struct{}

	slots   chan struct{} // MaxParallelChats tokens
	workers sync.WaitGroup
}

func newDispatcher(ctx context.Context, o *Options, bot *tgbotapi.BotAPI) *dispatcher {
	off := o.State.Offset(Channel)
	return &dispatcher{ctx: ctx, o: o, bot: bot, queues: map[int64][]tgbotapi.Update{}, inflight: map[int]bool{},
		next: off, saved: off, done: make(chan struct{}, 1), slots: make(chan struct{}, MaxParallelChats)}
}

// offset is the getUpdates offset: that of the oldest message not served.
func (d *dispatcher) offset() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.safe()
}

// safe is the oldest update id taken and not served, else next; d.mu is
// held.
func (d *dispatcher) safe() int {
	s := d.next
	for id := range d.inflight {
		s = min(s, id)
	}
	return s
}

// take queues the updates of one poll and reports whether any was new.
func (d *dispatcher) take(updates []tgbotapi.Update) (fresh bool) {
	d.mu.Lock()
	for _, u := range updates {
		if u.UpdateID < d.next {
			continue // taken before: in flight, or served
		}
		fresh, d.next = true, u.UpdateID+1
		if _, ok := message(u); !ok {
			continue
		}
		chat := u.Message.Chat.ID
		d.inflight[u.UpdateID] = true
		d.queues[chat] = append(d.queues[chat], u)
		if len(d.queues[chat]) == 1 {
			d.workers.Add(1)
			go d.serve(chat)
		}
	}
	d.advance()
	d.mu.Unlock()
	return fresh
}

// serve serves chat's messages in order until its queue is empty or the
// daemon stops; a message not started before the stop stays unserved (it
// is given again at the next start).
func (d *dispatcher) serve(chat int64) {
	defer d.workers.Done()
	for {
		d.mu.Lock()
		u := d.queues[chat][0]
		d.mu.Unlock()
		select {
		case d.slots <- struct{}{}:
		case <-d.ctx.Done():
			return
		}
		if d.ctx.Err() != nil {
			<-d.slots
			return
		}
		m, _ := message(u)
		r := &replier{bot: d.bot, chat: chat, o: d.o}
		if err := d.o.Handler.Handle(d.ctx, m, r); err != nil && d.ctx.Err() == nil {
			d.o.Log(d.o.Lang.Plain().Sprintf("telegram: chat %d: %v", chat, d.o.Lang.Error(d.o.redact(err), nil)))
		}
		<-d.slots
		d.mu.Lock()
		delete(d.inflight, u.UpdateID)
		d.queues[chat] = d.queues[chat][1:]
		last := len(d.queues[chat]) == 0
		if last {
			delete(d.queues, chat)
		}
		d.advance()
		d.mu.Unlock()
		select {
		case d.done <- struct{}{}:
		default:
		}
		if last {
			return
		}
	}
}

// advance writes the offset when it moved; d.mu is held, so that offsets
// are written in order.
func (d *dispatcher) advance() {
	if s := d.safe(); s > d.saved {
		if err := d.o.State.SetOffset(Channel, s); err != nil {
			d.o.Log("telegram: " + err.Error())
			return
		}
		d.saved = s
	}
}

// busy reports whether a message is waiting or being served.
func (d *dispatcher) busy() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.inflight) > 0
}

// pause waits, after a poll that brought nothing new while messages are
// served, until one is served, Options.Recheck passes or the daemon stops.
func (d *dispatcher) pause() {
	t := time.NewTimer(d.o.Recheck)
	defer t.Stop()
	select {
	case <-d.done:
	case <-t.C:
	case <-d.ctx.Done():
	}
}

// wait waits until every message started is served (a turn cut short by
// the stop keeps its prompt).
func (d *dispatcher) wait() { d.workers.Wait() }
